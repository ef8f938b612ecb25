#include "FigureFile.h"

#include "FigureRoom.h"

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

QString documentTitle(const FigureBuild &build, const FigureStyle &style)
{
    if (style.title)
        return *style.title;
    const QString title = FigureRoom::fullTitle(*build.plot());
    return title.isEmpty() ? u"PosEnc Explorer: %1"_s.arg(build.figure().name()) : title;
}

QString documentDescription(const FigureBuild &build)
{
    QStringList lines {u"PosEnc Explorer: %1"_s.arg(build.figure().name())};
    lines += FigureRoom::setAside(*build.plot());
    return lines.join(u'\n');
}

QByteArray encode(const FigureBuild &build, FigureFormat format, const FigureStyle &style)
{
    return FigureExporter::encode(build.plot(), build.size(), format, documentTitle(build, style),
                                  documentDescription(build));
}

std::variant<QByteArray, FigureError> render(const FigureDescriptor &figure, std::shared_ptr<const Engine> engine,
                                             const FigureState &state, const FigureStyle &style, const FigureSize &size,
                                             FigureFormat format, int threads)
{
    FigureBuild build(figure, std::move(engine), state, style, size);
    build.run(threads);
    if (build.error())
        return *build.error();
    return encode(build, format, style);
}

} // namespace posenc::FigureFile
