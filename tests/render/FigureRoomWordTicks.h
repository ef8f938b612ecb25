#pragma once

// Tick labels of words on little room (FigureRoom::Steps::elideTickLabels), tests of
// tst_figureroom: each keeps the first whole words that tell it from the others, and a label in
// lines is measured line by line.
namespace FigureRoomWordTicks {

void keepTheirFirstWords();
void measuredLineByLine();

} // namespace FigureRoomWordTicks
