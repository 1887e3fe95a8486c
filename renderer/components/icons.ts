/** The app's icons: SVG path data on a 24 × 24 grid, drawn with a 1.8 px stroke by `AppIcon.vue`. */
export const ICONS = {
  portfolios: 'M3 8h18v11a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2zM8 8V5a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v3M3 13h18',
  connections: 'M9 15l6-6M11 6l1.5-1.5a4.2 4.2 0 0 1 6 6L17 12M13 18l-1.5 1.5a4.2 4.2 0 0 1-6-6L7 12',
  activity: 'M3 12h4l3-8 4 16 3-8h4',
  catalogues: 'M12 3l9 4.5-9 4.5-9-4.5zM3 12l9 4.5 9-4.5M3 16.5l9 4.5 9-4.5',
  settings: 'M4 6h9m4 0h3M4 12h3m4 0h9M4 18h11m4 0h1M15 4v4M9 10v4M17 16v4',
  sun: 'M12 8a4 4 0 1 0 0 8a4 4 0 1 0 0-8zM12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4',
  moon: 'M20.5 14.5A8.5 8.5 0 1 1 9.5 3.5a7 7 0 0 0 11 11z',
  system: 'M3 4h18v12H3zM8 20h8M12 16v4',
  building: 'M4 21V6l8-3v18M12 9h8v12M2 21h20M7 8h2M7 12h2M7 16h2M15 13h2M15 17h2',
  chevron: 'M9 6l6 6-6 6',
  folder: 'M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2zM12 10v6M9 13l3-3 3 3',
  passport: 'M6 3h9l4 4v14H6zM14 3v5h5M9 13h7M9 17h5',
  refresh: 'M20 12a8 8 0 1 1-2.4-5.7M20 4v5h-5',
  logo: 'M6 15.5a6.5 6.5 0 1 1 12 0M18 15.5l-3-.6 2-2.4M8 18.5h8',
} as const;

/** The name of an icon. */
export type IconName = keyof typeof ICONS;
