// Line icons drawn on a 24 px grid with the current text colour.

const paths = {
  home: 'M3 11l9-7 9 7M5 10v10h5v-6h4v6h5V10',
  template: 'M4 4h16v16H4zM4 9h16M9 9v11',
  cloud: 'M7 18h10a4 4 0 0 0 .6-7.96A6 6 0 0 0 6.1 9.1 4.5 4.5 0 0 0 7 18z',
  cloudSave: 'M7 18h10a4 4 0 0 0 .6-7.96A6 6 0 0 0 6.1 9.1 4.5 4.5 0 0 0 7 18zM12 16v-5M9.5 13.5L12 11l2.5 2.5',
  annotate: 'M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4',
  edit: 'M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4 12.5-12.5z',
  convert: 'M4 8h13l-3-3M20 16H7l3 3',
  organize: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  protect: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6l8-3z',
  ai: 'M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8L12 3zM19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8L19 15z',
  menu: 'M4 6h16M4 12h16M4 18h16',
  gift: 'M4 11h16v10H4zM3 7h18v4H3zM12 7v14M12 7S10.5 3 8 3a2 2 0 0 0 0 4M12 7s1.5-4 4-4a2 2 0 0 1 0 4',
  bell: 'M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0',
  close: 'M6 6l12 12M18 6L6 18',
  chevronDown: 'M6 9l6 6 6-6',
  chevronUp: 'M6 15l6-6 6 6',
  minus: 'M5 12h14',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4',
  upload: 'M12 16V4M7 9l5-5 5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3',
  download: 'M12 4v12M7 11l5 5 5-5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
  grip: 'M9 6h.01M15 6h.01M9 12h.01M15 12h.01M9 18h.01M15 18h.01',
  lock: 'M6 11h12v9H6zM8 11V8a4 4 0 0 1 8 0v3',
  globe: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z',
  plus: 'M12 5v14M5 12h14',
  reverse: 'M7 4v16M4 17l3 3 3-3M17 20V4M14 7l3-3 3 3',
  rotateRight: 'M20 4v5h-5M20 9a8 8 0 1 0 1 6',
  rotateLeft: 'M4 4v5h5M4 9a8 8 0 1 1-1 6',
  check: 'M5 12l5 5 9-10',
  arrowRight: 'M5 12h14M13 6l6 6-6 6',
  arrowLeft: 'M19 12H5M11 6l-6 6 6 6',
  alert: 'M12 8v5M12 16h.01M10.3 4l-8 14a2 2 0 0 0 1.7 3h16a2 2 0 0 0 1.7-3l-8-14a2 2 0 0 0-3.4 0z',
  file: 'M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM14 3v5h5',
  merge: 'M4 4h6v8H4zM14 12h6v8h-6zM7 12v4a2 2 0 0 0 2 2h5M17 12V8a2 2 0 0 0-2-2h-5',
  split: 'M4 3h7v18H4zM13 3h7v18h-7zM11 8h2M11 16h2',
  extract: 'M5 3h9l5 5v6M5 3v18h7M14 3v5h5M15 18h7M19 15l3 3-3 3',
  deletePages: 'M5 3h9l5 5v5M5 3v18h7M14 3v5h5M16 16l5 5M21 16l-5 5',
  rearrange: 'M4 4h6v6H4zM14 14h6v6h-6zM14 7h6M17 4l3 3-3 3M10 17H4M7 14l-3 3 3 3',
  rotate: 'M6 4h9l4 4v12H6zM3 12a9 9 0 0 1 3-6.7M3 8v4h4',
  crop: 'M6 2v14a2 2 0 0 0 2 2h14M2 6h14a2 2 0 0 1 2 2v14',
  redact: 'M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM8 11h8v3H8zM8 17h5',
  replaceText: 'M4 7V5h8v2M8 5v10M6 15h4M14 13l3-3 3 3M17 10v9h-4',
  compress: 'M4 14h6v6M20 10h-6V4M14 10l7-7M3 21l7-7',
  unlock: 'M6 11h12v9H6zM8 11V8a4 4 0 0 1 7.7-1.5',
  docWord: 'M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM14 3v5h5M8 11l1.5 6 2.5-5 2.5 5 1.5-6',
  docSheet: 'M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM14 3v5h5M8 11h8v7H8zM8 14.5h8M12 11v7',
  docSlides: 'M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM14 3v5h5M8 11h8v5H8zM12 16v2',
  docText: 'M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM14 3v5h5M8 12h8M8 15h8M8 18h5',
  docPub: 'M6 3h8l5 5v12a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM14 3v5h5M9 18v-7h3a2 2 0 0 1 0 4H9',
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15 9h.01',
  folder: 'M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z',
  folderPlus: 'M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1zM12 10v6M9 13h6',
  folderMove: 'M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1zM9 13h6M13 10.5l2.5 2.5-2.5 2.5',
  chevronRight: 'M9 6l6 6-6 6',
  star: 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3 6.4 20.2l1.1-6.2L3 9.6l6.2-.9L12 3z',
  clock: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2',
  grid: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  list: 'M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  sort: 'M7 4v16M4 17l3 3 3-3M14 6h6M14 12h4M14 18h2',
  share:
    'M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 22a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.6 13.5l6.8 4M15.4 6.5l-6.8 4',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  qrCode: 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 14h2M14 18h2M18 18h2v2M16 16h2v2',
  mail: 'M3 6h18v12H3zM3 7l9 6 9-6',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  pointer: 'M5 3l14 8-6 1.5L10 19z',
  text: 'M5 6V4h14v2M12 4v16M9 20h6',
  textBox: 'M3 4h18v16H3zM8 9V8h8v1M12 8v8M10 16h4',
  whiteOut: 'M4 6h16v12H4zM8 10h8M8 14h5',
  rectangle: 'M4 6h16v12H4z',
  ellipse: 'M12 19c4.4 0 8-3.1 8-7s-3.6-7-8-7-8 3.1-8 7 3.6 7 8 7z',
  line: 'M5 19L19 5',
  arrow: 'M5 19L19 5M10 5h9v9',
  highlight: 'M9 11l-4 4v3h3l4-4M9 11l6-6 4 4-6 6M9 11l4 4M3 21h18',
  underline: 'M7 4v6a5 5 0 0 0 10 0V4M5 20h14',
  strikeout: 'M4 12h16M16 7a4 3 0 0 0-8 0c0 3 8 2 8 7a4 3 0 0 1-8 0',
  note: 'M4 4h16v12h-6l-4 4v-4H4z',
  comment: 'M4 5h16v11H9l-5 4zM8 9h8M8 12h5',
  ink: 'M3 17c3-6 5-6 6-2s3 4 5-2 4-6 7-3',
  stamp: 'M9 4h6l-1 8h-4zM5 15h14v3H5zM4 21h16',
  signature: 'M3 17c2-5 4-9 6-9s-1 9 1 9 3-5 5-5 1 5 3 5h3M3 21h18',
  undo: 'M9 14L4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3',
  redo: 'M15 14l5-5-5-5M20 9H9a5 5 0 0 0 0 10h3',
  zoomIn: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4M8 11h6M11 8v6',
  zoomOut: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4M8 11h6',
  fitWidth: 'M4 4v16M20 4v16M7 12h10M10 9l-3 3 3 3M14 9l3 3-3 3',
  save: 'M5 4h11l3 3v13H5zM8 4v5h7V4M8 20v-6h8v6',
  form: 'M4 4h16v16H4zM7 8h4M7 12h10M7 16h10M14 7h3v2h-3z',
  sign: 'M3 17c3-6 5-9 6.5-9S9 14 11 14s2.5-4 4-4 1 5 2.5 5 2-2 3.5-2M3 21h18',
} as const;

export type IconName = keyof typeof paths;

/** `filled`: the shape painted in too (a set star). */
export function Icon({
  name,
  size = 20,
  className,
  filled = false,
}: {
  name: IconName;
  size?: number;
  className?: string;
  filled?: boolean;
}) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={paths[name]} />
    </svg>
  );
}
