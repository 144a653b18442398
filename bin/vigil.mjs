#!/usr/bin/env node
// Admin CLI entry: runs src/cli.ts through tsx so no build step is needed.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
