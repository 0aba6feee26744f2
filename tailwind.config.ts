import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      // One installed family first and no system-ui: Tailwind's default stack made the first layout
      // of a page spend most of its time asking the system for fonts (about three look-ups per size
      // and weight), the home page's blocking time in Lighthouse. Arial is Liberation Sans on Linux
      // (fonts-liberation), a system sans-serif on Android and Apple devices.
      fontFamily: {
        sans: ["Arial", '"Liberation Sans"', "Helvetica", "sans-serif"],
      },
      colors: {
        brand: {
          50: "#eff6ff",
          100: "#dbeafe",
          600: "#1d4ed8",
          700: "#1e40af",
          800: "#1e3a8a",
          900: "#172554",
        },
        accent: { 500: "#f59e0b", 600: "#b45309" },
      },
    },
  },
  plugins: [],
} satisfies Config;
