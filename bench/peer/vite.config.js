// A plain production build (`vite build`: minified, hashed file names under dist/assets/).
// scripts/bench-first-screen runs it and writes brotli and gzip variants beside each file,
// as Moneydesk's release build does (xtask/src/compress.rs), so both are served alike.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
});
