#pragma once

#include "FigureBuild.h"
#include "FigureExporter.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <variant>

namespace posenc {

// A figure made into the bytes of a file: the one path behind `posenc export` and the window's
// Export figure, so both write the same file for the same figure and size.
namespace FigureFile {

constexpr int kMaxSide = 16384; // pixels of a side of a raster, layout units of a vector figure
constexpr std::int64_t kMaxPixels = std::int64_t(64) << 20;

// Why `size` is too large to draw ("W x H pixels is more than the largest figure, ..."), or nothing.
std::optional<QString> sizeRefusal(const FigureSize &size);

// The title a file records: the style's, or the figure's own whole (FigureRoom::fullTitle), however
// little of it the page shows.
QString documentTitle(const FigureBuild &build, const FigureStyle &style);
// What a file records beside it: the program and figure, and every text the page gave up or
// shortened, whole.
QString documentDescription(const FigureBuild &build);

// The bytes of a built figure (one whose request() gives nothing more, without error); empty when
// the encoder failed.
QByteArray encode(const FigureBuild &build, FigureFormat format, const FigureStyle &style);

// Builds the figure computing in the calling thread, and encodes it. Precondition: the
// figure's check passed for the engine's parameters and `state`.
std::variant<QByteArray, FigureError> render(const FigureDescriptor &figure, std::shared_ptr<const Engine> engine,
                                             const FigureState &state, const FigureStyle &style, const FigureSize &size,
                                             FigureFormat format, int threads = 0);

} // namespace FigureFile

} // namespace posenc
