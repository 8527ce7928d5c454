// The Instance config: where its runs get git credentials, which MCP servers its Agents and
// Effects may name, the Held secrets it binds, and the Sandbox size (docs/reference/config.md).
import { defineConfig } from "@jr2/orchestrator";

export default defineConfig({
  git: { credentials: [{ url: "https://github.com/you/", secret: "github" }] },
  mcp: { tickets: { url: "https://mcp.example.com/tickets", secret: "tickets" } },
  secrets: ["github", "jira", "npm", "tickets"],
  sandbox: { resources: { cpu: 2, memory: "4Gi" } },
});
