/** A colour per model overlaid on one chart (theme.css --model-1…6), repeating past six. */
export const MODEL_COLOURS = 6;

export function modelColour(index: number): string {
  return `var(--model-${(index % MODEL_COLOURS) + 1})`;
}
