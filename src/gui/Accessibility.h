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
// - a plot (a QCustomPlot) is a chart, not a filler.
void install();

// Says `text` of `widget` (the keyboard's readout of a plot): its accessible description, with
// the event that tells a screen reader the description changed.
void announce(QWidget *widget, const QString &text);

} // namespace posenc::Accessibility
