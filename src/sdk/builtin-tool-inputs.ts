// The built-in tools' inputs, as extension handlers see them once they check `event.toolName`.
import type { BashToolInput, EditToolInput, FindToolInput, GrepToolInput, LsToolInput, ReadToolInput, WriteToolInput } from "../tools/index.js";

declare module "../plugs/extensions/extension-api.js" {
	interface KnownToolInputs {
		read: ReadToolInput;
		bash: BashToolInput;
		edit: EditToolInput;
		write: WriteToolInput;
		grep: GrepToolInput;
		find: FindToolInput;
		ls: LsToolInput;
	}
}
