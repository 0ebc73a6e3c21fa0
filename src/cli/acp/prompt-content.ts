// An ACP prompt's content blocks as loom's prompt: text as it is, images attached, files the editor embedded
// inlined like @file arguments, and links to files named so the model can read them with its tools.
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { type ImageContent, inlinedFile } from "../../core/index.js";

export interface PromptInput {
	text: string;
	images: ImageContent[];
}

/**
 * Text and the files it mentions read as one sentence (a mention becomes the file's path); the text of files the
 * editor embedded comes first, as `<file>` blocks, like @file arguments on the command line.
 */
export function promptInput(blocks: readonly ContentBlock[]): PromptInput {
	const files: string[] = [];
	const images: ImageContent[] = [];
	let inline = "";
	// A mention right after a word or another mention is set apart by a space.
	const mention = (name: string) => (inline += inline === "" || /\s$/.test(inline) ? name : ` ${name}`);
	for (const block of blocks) {
		switch (block.type) {
			case "text":
				inline += block.text;
				break;
			case "image":
				images.push({ type: "image", data: block.data, mimeType: block.mimeType });
				break;
			case "resource": {
				const { resource } = block;
				const name = uriName(resource.uri);
				mention(name);
				if ("text" in resource) files.push(inlinedFile(name, resource.text));
				else if (resource.mimeType?.startsWith("image/")) images.push({ type: "image", data: resource.blob, mimeType: resource.mimeType });
				else files.push(`<file name="${name}">(binary, not included)</file>`);
				break;
			}
			case "resource_link":
				mention(uriName(block.uri));
				break;
			default:
				// Audio: not offered in the capabilities, so a client does not send it.
				break;
		}
	}
	return { text: [...files, inline.trim()].filter((part) => part !== "").join("\n\n"), images };
}

/** A file URI as its path; any other URI as it is. */
function uriName(uri: string): string {
	if (!uri.startsWith("file:")) return uri;
	try {
		return fileURLToPath(uri);
	} catch {
		return uri;
	}
}
