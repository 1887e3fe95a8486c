// A stylesheet is imported for its rules alone (Vite adds them to the page); it exports nothing.
declare module '*.css';
