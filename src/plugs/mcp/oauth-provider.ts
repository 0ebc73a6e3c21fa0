// An HTTP MCP server's OAuth, as the MCP SDK's client auth asks for it (OAuthClientProvider): the registered
// client, the tokens and discovery kept in auth.json under the server's URL, shared by every mode and every loom.
// `loom mcp login` makes one that sends the user to the sign-in page; a session's never does: a server that needs
// a new sign-in (no login, or a refresh token it no longer takes) fails with the command that fixes it.
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { randomState, readAuthFile, updateAuthFile, type McpServerLogin } from "../../core/index.js";

export interface SignInPage {
	/** Where the browser comes back: the callback loom listens on. */
	redirectUrl: string;
	/** The state the authorization request carries, checked on the callback. */
	state: string;
	/** Shows the user the authorization URL. */
	open(url: URL): void;
}

/** Thrown by a session's provider when the server asks for a sign-in loom cannot do by itself. */
export class McpSignInNeeded extends Error {
	constructor(server: string) {
		super(`MCP server ${server} asks you to sign in (OAuth): run loom mcp login ${server} (in the screen: /mcp login ${server}).`);
		this.name = "McpSignInNeeded";
	}
}

export class McpOAuthProvider implements OAuthClientProvider {
	private verifier: string | undefined;
	/** A sign-in's own tokens: it never offers the stored ones, which stay until these replace them. */
	private signInTokens: OAuthTokens | undefined;

	constructor(
		private readonly home: string,
		/** The server's name, as messages name it. */
		private readonly server: string,
		/** The server's URL: its key in auth.json. */
		private readonly url: string,
		private readonly page?: SignInPage,
		/** Tells the user about an auth.json loom cannot read (once per provider). */
		private readonly warn?: (text: string) => void,
	) {}
	private warned = false;

	get redirectUrl(): string {
		// A session's provider keeps the URL the client was registered with (the SDK needs one to refresh).
		const registered = this.stored().client?.redirect_uris;
		return this.page?.redirectUrl ?? (Array.isArray(registered) && typeof registered[0] === "string" ? registered[0] : "http://127.0.0.1/callback");
	}

	get clientMetadata(): OAuthClientMetadata {
		return {
			client_name: "loom",
			redirect_uris: [this.redirectUrl],
			grant_types: ["authorization_code", "refresh_token"],
			response_types: ["code"],
			token_endpoint_auth_method: "none",
		};
	}

	state(): string {
		return this.page?.state ?? randomState();
	}

	clientInformation(): OAuthClientInformationMixed | undefined {
		const client = this.stored().client as OAuthClientInformationMixed | undefined;
		// A session never registers a client: that starts a sign-in only `loom mcp login` can finish.
		if (!client && !this.page) throw new McpSignInNeeded(this.server);
		// A client registered for another callback (an earlier login's port) is registered again.
		if (client && this.page && "redirect_uris" in client && Array.isArray(client.redirect_uris) && !client.redirect_uris.includes(this.page.redirectUrl)) return undefined;
		return client;
	}

	saveClientInformation(client: OAuthClientInformationMixed): void {
		this.change((login) => {
			login.client = client as Record<string, unknown>;
		});
	}

	tokens(): OAuthTokens | undefined {
		if (this.page) return this.signInTokens;
		return this.stored().tokens as OAuthTokens | undefined;
	}

	saveTokens(tokens: OAuthTokens): void {
		if (this.page) this.signInTokens = tokens;
		this.change((login) => {
			login.tokens = tokens as Record<string, unknown>;
			if (typeof tokens.expires_in === "number") login.expires = Date.now() + tokens.expires_in * 1000;
		});
	}

	redirectToAuthorization(url: URL): void {
		if (!this.page) throw new McpSignInNeeded(this.server);
		this.page.open(url);
	}

	saveCodeVerifier(verifier: string): void {
		this.verifier = verifier;
	}

	codeVerifier(): string {
		if (!this.verifier) throw new Error(`No sign-in to MCP server ${this.server} is under way.`);
		return this.verifier;
	}

	discoveryState(): OAuthDiscoveryState | undefined {
		return this.stored().discovery as OAuthDiscoveryState | undefined;
	}

	saveDiscoveryState(state: OAuthDiscoveryState): void {
		this.change((login) => {
			login.discovery = state as unknown as Record<string, unknown>;
		});
	}

	invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
		if (scope === "verifier") {
			this.verifier = undefined;
			return;
		}
		if (this.page && (scope === "all" || scope === "tokens")) this.signInTokens = undefined;
		this.change((login) => {
			if (!this.page && (scope === "all" || scope === "tokens")) delete login.tokens;
			if (scope === "all" || scope === "client") delete login.client;
			if (scope === "all" || scope === "discovery") delete login.discovery;
		});
	}

	private stored(): McpServerLogin {
		// A session's server without a login must not fail on every request because the file is broken: it has
		// no login, said once. A sign-in (page) fails instead, saying how to reset the file.
		try {
			return readAuthFile(this.home).mcp[this.url] ?? {};
		} catch (error) {
			if (this.page) throw error;
			if (!this.warned) this.warn?.(`MCP server ${this.server} uses no login: ${(error as Error).message}`);
			this.warned = true;
			return {};
		}
	}

	private change(edit: (login: McpServerLogin) => void): void {
		updateAuthFile(this.home, (file) => {
			const login = file.mcp[this.url] ?? {};
			edit(login);
			if (Object.keys(login).length === 0) delete file.mcp[this.url];
			else file.mcp[this.url] = login;
		});
	}
}
