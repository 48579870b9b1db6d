/** Puts values into a catalogue sentence's {placeholders}; a missing value leaves the placeholder out. */
export function fillMessage(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => (name in values ? String(values[name]) : ""));
}
