#include "FigureFile.h"

using namespace Qt::StringLiterals;

namespace posenc::FigureFile {

std::optional<QString> sizeRefusal(const FigureSize &size)
{
    const QSize pixels = size.pixels();
    if (pixels.width() <= kMaxSide && pixels.height() <= kMaxSide
        && std::int64_t(pixels.width()) * pixels.height() <= kMaxPixels)
        return std::nullopt;
    return u"%1 x %2 pixels is more than the largest figure, %3 pixels a side and %4 megapixels"_s.arg(pixels.width())
        .arg(pixels.height())
        .arg(kMaxSide)
        .arg(kMaxPixels >> 20);
}

QString documentTitle(const FigureOptions &options)
{
    return options.title.value_or(u"PosEnc Explorer: %1"_s.arg(FigureKinds::name(options.kind)));
}

std::variant<QByteArray, FigureError> render(const Engine &engine, const FigureOptions &options, const FigureSize &size,
                                             FigureFormat format, const ComputeOptions &compute)
{
    QCustomPlot plot;
    if (auto refused = FigureRenderer::build(&plot, engine, options, size, compute))
        return *refused;
    return FigureExporter::encode(&plot, size, format, documentTitle(options));
}

} // namespace posenc::FigureFile
