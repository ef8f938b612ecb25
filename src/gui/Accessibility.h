#pragma once

class QString;
class QWidget;

namespace posenc::Accessibility {

// What a screen reader meets, where Qt's own interfaces fall short; installed once, before the
// first widget is made (runWindow; the window's constructor too, for a window made alone), since
// a screen reader's bridge asks for a widget's interface as it is made and keeps it:
// - a combo box is named by its label (its buddy's text or its accessible name), its entry being
//   its value, where Qt on Linux names it by its entry (the label only as a relation, which an
//   at-spi dump does not show as the name);
// - a plot (a QCustomPlot) is a chart, not a filler;
// - a widget's description is its tooltip's plain text, never its markup (Qt reads a rich text
//   tooltip as the description where a widget has none).
void install();

// `text` without its markup where it is rich text: "<b>d_model</b>&nbsp;<code>--d-model N</code>"
// is "d_model --d-model N", a line break a newline.
QString plainText(const QString &text);

// Says `text` of `widget` (the keyboard's readout of a plot): its accessible description, with
// the event that tells a screen reader the description changed.
void announce(QWidget *widget, const QString &text);

} // namespace posenc::Accessibility
