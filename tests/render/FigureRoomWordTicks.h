#pragma once

// Tick labels of words on little room (FigureRoom::Steps::elideTickLabels), tests of
// tst_figureroom: each keeps the first whole words that tell it from the others, and a label in
// lines is measured line by line.
class QCPAxisRect;
class QCustomPlot;
class QFont;

namespace FigureRoomWordTicks {

// A 300 x 200 plot of one axis rect, its texts in `font`, both axes over 0..upper.
QCPAxisRect *oneRect(QCustomPlot &plot, const QFont &font, double upper);

void keepTheirFirstWords();
void measuredLineByLine();

} // namespace FigureRoomWordTicks
