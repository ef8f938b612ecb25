#pragma once

#include "core/Block.h"
#include "core/NumberText.h"
#include "core/Params.h"
#include "core/Quantity.h"
#include "render/data/FigureOption.h"
#include "render/data/FigureState.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <initializer_list>

// The words and numbers figures show, shared by the data (titles and summaries computed with it)
// and the drawing.
namespace posenc::FigureText {

// The parameters a table of `quantity` depends on (its row's `parameters`), for a title, in parts
// joined by "  ·  " where a long title may wrap: "d = 512, L = 1,024  ·  s = √d = 22.63, σ = 1".
QString parametersText(Quantity quantity, const Params &params);
QString formatCount(std::int64_t n); // 8192 -> "8,192"
// "1 position", "8,192 positions": the count and the noun that agrees with it.
QString countText(std::int64_t n, const QString &one, const QString &many);
// A ratio to three significant digits, thousands grouped instead of an exponent:
// 3093.4 -> "3,090", 17.83 -> "17.8".
QString formatRatio(double value);
// The cells down and across that each pixel of a grid of `rows` x `cols` pixels over `block`
// averages: "~3,090 × 17.8"; empty when no pixel averages more than one cell either way.
QString averagedCellsText(const Block &block, int rows, int cols);
// Between the forms of a screen's note, longest first: U+009C, which QFontMetrics::elidedText
// reads as Qt's length variants (FigurePlot::screenNote).
inline constexpr QChar kLengthVariants {0x9c};
// The same for the view's screen note, in a student's words: "each pixel averages ~3,090
// positions and ~18 columns", then shorter forms after kLengthVariants ("~3,090 positions × ~18
// columns a pixel", "~3,090 × ~18 cells a pixel"; "~2.6 positions a pixel" where the other count
// is one); empty when no pixel averages more than one.
QString cellsPerPixelText(const Block &block, int rows, int cols);
// What a preview estimated from a share `rowCoverage` (0..1) of its rows says of itself, for the
// view's screen note: "preview (25% of rows)".
QString previewText(double rowCoverage);
// The dropout figures' option of whose p the parameters hold where it is not the named model's
// own (a lesson's slide for a model without input dropout: "the lesson's"), and the words that
// state p in their titles: "p = 0.1", "p = 0.1, the lesson's".
inline constexpr char16_t kDropoutOwner[] = u"p-owner";
FigureOption dropoutOwnerOption();
QString dropoutRateText(const Params &params, const FigureState &state);
// Whose p `state` says it is ("the lesson's"); empty: the model's own, or no model named.
QString dropoutOwnerText(const FigureState &state);
// A legend name for values on a log axis from `floor` up, with the count of those it cannot show
// (|v| below the floor, zeros included): "|mean| of PE[:, j] (42 below the axis)", or the name;
// `axes` for a legend shared by several axes: "(42 below the axes)".
QString belowAxisName(const QString &name, std::initializer_list<const QList<double> *> values, double floor,
                      bool axes = false);

} // namespace posenc::FigureText
