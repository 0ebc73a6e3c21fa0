// Door of the resources: skills and prompt templates from the user's and the project's folders.
export { installResources } from "./install-resources.js";
