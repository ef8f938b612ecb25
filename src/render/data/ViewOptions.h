#pragma once

#include "FigureOption.h"
#include "FigureState.h"

#include "core/Block.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

// The options that choose what part of a table a figure shows: --positions A:B and --dims LIST,
// shared by the figures that take them.
namespace posenc::ViewOptions {

inline constexpr char16_t kPositions[] = u"positions";
inline constexpr char16_t kDims[] = u"dims";
inline constexpr char16_t kMeanOnly[] = u"mean-only";
inline constexpr char16_t kColormap[] = u"colormap";
inline constexpr char16_t kCellNumbers[] = u"cell-numbers";
inline constexpr char16_t kAutoColormap[] = u"auto";

FigureOption positions(const QString &help);
FigureOption dims(const QString &help, bool inWindow);
// --mean-only: a heatmap's pixels show the mean of the cells they average, without the mark of
// the PE's swing within them (drawn without computing again).
FigureOption meanOnly();
bool isMeanOnly(const FigureState &state);

// --colormap: the colour map of every map of the figure, or auto (each figure's own: diverging
// about zero for signed data, sequential for data of one sign).
FigureOption colormap();
// --cell-numbers: each cell's value written in it where every cell in view has room for its
// number at the figure's font (auto, the default), or none (off).
FigureOption cellNumbers();
bool showsCellNumbers(const FigureState &state);
// The options of every figure that draws a colour map: --cell-numbers, and --colormap unless the
// figure has its own (`ownColormap`).
QList<FigureOption> mapOptions(bool ownColormap);

// The positions [A, B) given, if any (check() made sure they read).
std::optional<std::pair<std::int64_t, std::int64_t>> positionRange(const FigureState &state);
// The columns listed, empty when none are given.
std::vector<std::int64_t> columns(const FigureState &state);

// --positions within [0, rows), --dims within [0, cols) and at most `maxColumns` of them; each
// problem names the option, the figure and the range.
QList<ParamError> check(const FigureState &state, const QString &figure, std::int64_t rows, std::int64_t cols,
                        std::int64_t maxColumns = std::int64_t(1) << 24);

// The cells in view: rows of --positions and columns of --dims (lowest to highest), or those of
// `fallback`.
Block inView(const FigureState &state, const Block &fallback);

} // namespace posenc::ViewOptions
