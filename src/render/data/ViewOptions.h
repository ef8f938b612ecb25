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

FigureOption positions(const QString &help);
FigureOption dims(const QString &help, bool inWindow);
// --mean-only: a heatmap's pixels show the mean of the cells they average, without the mark of
// the PE's swing within them (drawn without computing again).
FigureOption meanOnly();
bool isMeanOnly(const FigureState &state);

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
