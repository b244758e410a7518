/* A tiny built-in bitmap font (5x7 glyphs in 6x9 cells) for the viewer's
 * heads-up line, so that no font library is needed.
 *
 * Contract: font_draw calls plot(user, x, y) once for every lit pixel of
 * text laid out from (x0, y0), the top-left corner of the first cell, y
 * growing downwards, each font pixel scaled to scale x scale pixels.
 * Lower-case letters are drawn as capitals; characters without a glyph
 * are drawn as blanks. */
#ifndef CAROM_VIEWER_FONT_H
#define CAROM_VIEWER_FONT_H

#define FONT_CELL_W 6
#define FONT_CELL_H 9

typedef void (*font_plot_fn)(void *user, int x, int y);

void font_draw(const char *text, int x0, int y0, int scale, font_plot_fn plot, void *user);

/* Width in pixels of text at the given scale. */
int font_text_width(const char *text, int scale);

#endif
