"""The tools: what people and programs do with hands (bots, simulate, lint, explain, play,
serve, scenarios). Built on the interpreter and the language; the CLI sits on top of them."""
