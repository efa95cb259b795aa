// en-us.json split by the web build (englishTextParts.ts, shellTexts.ts).
declare module '*/en-us.json?shell' {
  const texts: Record<string, string>;
  export default texts;
}
declare module '*/en-us.json?rest' {
  const texts: Record<string, string>;
  export default texts;
}
