// The load benchmark's Instance (bench/load.sh): no secrets, no MCP servers.
import { defineConfig } from "@jr2/orchestrator";

export default defineConfig({});
