// Starts `tonk lsp` for YAML files and lets the editor talk to it: the server decides, by a file's
// keys, whether it is a ruleset or a scenario, and stays silent on any other YAML.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("tonkdsl");
  const [command, ...args] = config.get("command", ["tonk", "lsp"]);
  const serverOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: config.get("files", ["**/*.yaml", "**/*.yml"]).map((pattern) => ({
      scheme: "file", language: "yaml", pattern,
    })),
  };
  client = new LanguageClient("tonkdsl", "Tonk rulesets", serverOptions, clientOptions);
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `Could not start '${[command, ...args].join(" ")}': ${err.message}. ` +
      "Install it with pip install 'tonkdsl[lsp]', or set tonkdsl.command.");
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
