// Languages named in the page's own language ("es" is "Spanish" in English, "Spanisch" in German).

export function languageNamer(locale: string): (code: string) => string {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([locale], { type: 'language' });
  } catch {
    names = undefined; // a browser without DisplayNames: the codes themselves
  }
  return (code) => {
    try {
      return names?.of(code) ?? code;
    } catch {
      return code;
    }
  };
}
