import type { Config } from 'tailwindcss';

/**
 * Loaded by src/styles.css through Tailwind v4's @config. Fonts are the system's own:
 * nothing is fetched from another origin.
 */
export default {
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  theme: {
    extend: {
      fontFamily: {
        sans: ['system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'Helvetica Neue', 'Arial', 'sans-serif'],
        mono: ['ui-monospace', 'SFMono-Regular', 'Menlo', 'Consolas', 'monospace'],
      },
      colors: {
        brand: {
          50: '#eef6ff',
          100: '#d9eaff',
          500: '#2f6fed',
          600: '#1f57d6',
          700: '#1945ad',
        },
        adopt: '#15803d',
        dispute: '#b91c1c',
      },
    },
  },
} satisfies Config;
