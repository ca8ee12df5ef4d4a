"""``tonk lsp``: rulesets and scenarios in the editor (diagnostics, hover, completion, go to
definition, quick fixes). :mod:`analysis` holds the answers and needs nothing beyond the core;
:mod:`server` speaks the Language Server Protocol with pygls (the 'lsp' extra)."""
