import { defineConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Without the `module` condition here: OpenTelemetry JS's ESM build (which that condition picks)
// imports files without their extensions, as bundlers allow and Node's loader does not. Every
// package then loads as Node itself would load it (the OTLP exporter tests).
const conditions = ['@weft/source', 'node', 'development|production'];

export default defineConfig({ ...shared, resolve: { conditions }, ssr: { resolve: { conditions } } });
