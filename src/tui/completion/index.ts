// Door of completion: what the editor offers after `/` and `@`, fuzzy-matched.
export { createCompletions, type CompletionSource } from "./completions.js";
export { fuzzyFilter } from "./fuzzy-match.js";
export { applySuggestion, type SuggestionList } from "./suggestions.js";
