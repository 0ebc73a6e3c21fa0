// One loom's use of the prompt history, many times over, for the concurrency test: `count` prompts typed as
// "<name> <n>" (n from 1), the history loaded (and so trimmed when over its bound) after every `loadEvery`.
// Usage: node prompt-history-writer.mjs <built prompt-history-file.js> <history file> <name> <count> <loadEvery>
const [modulePath, file, name, count, loadEvery] = process.argv.slice(2);
const { loadPromptHistory, savePrompt } = await import(modulePath);
for (let n = 1; n <= Number(count); n++) {
	savePrompt(file, "/project", `${name} ${n}`);
	if (n % Number(loadEvery) === 0) loadPromptHistory(file, "/project");
}
