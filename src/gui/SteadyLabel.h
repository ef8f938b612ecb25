#pragma once

#include <QLabel>

#include <map>

namespace posenc {

// A word-wrapped label whose texts take turns under a plot (the check window's heatmap caption:
// "Computing rows …" while a view is computed, then what the grid drawn shows). At each width it
// asks for the height of the tallest text it has shown at that width, so that a shorter text
// leaves its room empty instead of handing it to the widgets beside it: a caption that shrank and
// grew again at every zoom resized the plots above and below it twice, each resize a replot of
// every layer (docs/ARCHITECTURE.md, Performance).
class SteadyLabel : public QLabel
{
public:
    explicit SteadyLabel(QWidget *parent = nullptr);

    // What a layout lays the label out at (QBoxLayout asks a wrapped label's height for its width).
    int heightForWidth(int width) const override;

private:
    mutable std::map<int, int> m_tallest; // width -> the tallest text's height at it
};

} // namespace posenc
