// Door of the resources: skills and prompt templates from the user's and the project's folders.
export { installResources } from "./install-resources.js";
export { agentDirs, agentFiles, loadAgents, toolList, type AgentDefinition, type LoadedAgents } from "./agent-files.js";
export type { ResourceLocations } from "./resource-dirs.js";
