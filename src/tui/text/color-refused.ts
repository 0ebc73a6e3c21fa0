// Whether the user asked for no colour (https://no-color.org): NO_COLOR set and not empty, unless FORCE_COLOR says
// otherwise. A file of its own: the editor's first frame asks it before the rest of the screen loads.
export function colorRefused(env: NodeJS.ProcessEnv = process.env): boolean {
	return (env.NO_COLOR ?? "") !== "" && env.FORCE_COLOR === undefined;
}
