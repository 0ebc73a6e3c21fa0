// Door of tui/components.
export { App, type AppProps } from "./App.js";
export { StandaloneDialog } from "./StandaloneDialog.js";
