#pragma once

#include "FigureExporter.h"
#include "FigureRenderer.h"

#include <QByteArray>
#include <QSize>
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

// The title a file records when the figure's options give none.
QString documentTitle(const FigureOptions &options);

// Builds the figure (precondition: FigureRenderer::check passed) and encodes it; the bytes are
// empty when the encoder failed.
std::variant<QByteArray, FigureError> render(const Engine &engine, const FigureOptions &options, const FigureSize &size,
                                             FigureFormat format, const ComputeOptions &compute = {});

} // namespace FigureFile

} // namespace posenc
