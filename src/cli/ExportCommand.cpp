#include "ExportCommand.h"

#include "ExitCode.h"
#include "ParamOptions.h"

#include "core/ParamText.h"
#include "io/AtomicFile.h"
#include "render/FigureFile.h"

#include <QCommandLineParser>

#include <cmath>

#include <variant>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

using FigureFile::kMaxSide;
constexpr int kDefaultWidth = 1200;
constexpr int kDefaultHeight = 800;
constexpr double kDefaultDpi = 300.0;

QStringList heatmapQuantityNames()
{
    QStringList names;
    for (const Quantity q : FigureRenderer::heatmapQuantities())
        names.append(Quantities::name(q));
    return names;
}

QString usage()
{
    return u"Usage: posenc export FIGURE -o FILE [OPTIONS]\n"
           "Draws a figure of the window headless, as the window draws it; the format comes from the\n"
           "extension: .png, .svg or .pdf (vector text and axes; heatmaps embedded as images).\n\n"
           "FIGURE: %1\n"
           "  heatmap      positions x columns of one quantity (--quantity), with a colorbar\n"
           "  curves       PE[:, j] against position for a few columns (--dims to choose them)\n"
           "  magnitudes   ||PE_p|| and ||s*E_p|| per position, RMS per column\n"
           "  dropout      the keep mask and the output Y side by side\n"
           "  learned      a learned position table (--embeddings FILE[:TENSOR]) beside the\n"
           "               sinusoidal PE: both tables, their similarities and their norms\n\n"
           "Options:\n"
           "  -o, --output FILE    where to write (an existing file is replaced, whole)\n"
           "  --width PX --height PX\n"
           "                       size in pixels (default %2 x %3), laid out as on screen;\n"
           "                       with --dpi, the pixels of a print at that dpi\n"
           "  --size WxHcm         physical size, also in or mm, e.g. 8.5x6cm; text keeps its point\n"
           "                       size; PDF and SVG pages are this size\n"
           "  --dpi N              pixels per inch of a physical size (default %4)\n"
           "  --font-size PT       size of the axis labels, every text scaled with it (default 9)\n"
           "  --title TEXT         replaces the figure's title\n"
           "  --colormap NAME      heatmap and dropout: %5\n"
           "  --quantity Q         heatmap: %6 (default pe)\n"
           "  --positions A:B      heatmap, curves, dropout: positions A..B-1 in view\n"
           "  --dims LIST          curves: the columns drawn; heatmap, dropout: columns in view\n"
           "  --threads N          worker threads (default: all cores)\n\n"
           "Exit codes: 0 done, 2 invalid usage or parameter, 3 the file cannot be written or read,\n"
           "4 over the memory budget.\n\n"
           "Parameters:\n%7"_s.arg(FigureKinds::names().join(u", "_s))
               .arg(kDefaultWidth)
               .arg(kDefaultHeight)
               .arg(kDefaultDpi)
               .arg(Colormaps::names().join(u", "_s), heatmapQuantityNames().join(u", "_s), ParamOptions::helpText());
}

int fail(QTextStream &err, int code, const QString &message)
{
    err << "posenc export: " << message << '\n';
    return code;
}

std::optional<double> number(const QString &text, double lo, double hi)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok && v >= lo && v <= hi ? std::optional(v) : std::nullopt;
}

struct SizeOptions
{
    QCommandLineOption width {u"width"_s, u"Width in pixels."_s, u"PX"_s};
    QCommandLineOption height {u"height"_s, u"Height in pixels."_s, u"PX"_s};
    QCommandLineOption size {u"size"_s, u"Physical size."_s, u"WxHcm"_s};
    QCommandLineOption dpi {u"dpi"_s, u"Pixels per inch."_s, u"N"_s};
};

// The figure's size from --width/--height, --size and --dpi, or the message naming the option.
std::variant<FigureSize, QString> readSize(const QCommandLineParser &parser, const SizeOptions &o)
{
    std::optional<double> dpi;
    if (parser.isSet(o.dpi)) {
        dpi = number(parser.value(o.dpi), 10.0, 2400.0);
        if (!dpi)
            return u"--dpi: must be a number in [10, 2400]; got '%1'"_s.arg(parser.value(o.dpi));
    }
    FigureSize size;
    if (parser.isSet(o.size)) {
        if (parser.isSet(o.width) || parser.isSet(o.height))
            return u"--size: give either --size or --width and --height, not both"_s;
        const auto inches = FigureSizes::parsePhysical(parser.value(o.size));
        if (const auto *error = std::get_if<QString>(&inches))
            return u"--size: "_s + *error;
        size = FigureSize::fromInches(std::get<QSizeF>(inches), dpi.value_or(kDefaultDpi));
    } else {
        if (parser.isSet(o.width) != parser.isSet(o.height))
            return u"--width, --height: give both, or --size"_s;
        QSize pixels(kDefaultWidth, kDefaultHeight);
        if (parser.isSet(o.width)) {
            const auto w = number(parser.value(o.width), 16, kMaxSide);
            const auto h = number(parser.value(o.height), 16, kMaxSide);
            if (!w || *w != std::floor(*w))
                return u"--width: must be a whole number of pixels in [16, %1]; got '%2'"_s.arg(kMaxSide).arg(
                    parser.value(o.width));
            if (!h || *h != std::floor(*h))
                return u"--height: must be a whole number of pixels in [16, %1]; got '%2'"_s.arg(kMaxSide).arg(
                    parser.value(o.height));
            pixels = QSize(static_cast<int>(*w), static_cast<int>(*h));
        }
        size = dpi ? FigureSize::fromPixelsAtDpi(pixels, *dpi) : FigureSize::fromPixels(pixels);
    }
    if (const auto refused = FigureFile::sizeRefusal(size))
        return u"--size, --dpi: "_s + *refused;
    return size;
}

} // namespace

int runExportCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption outputOption({u"o"_s, u"output"_s}, u"File to write."_s, u"FILE"_s);
    const SizeOptions sizeOptions;
    const QCommandLineOption colormapOption(u"colormap"_s, u"Colormap."_s, u"NAME"_s);
    const QCommandLineOption fontOption(u"font-size"_s, u"Font size."_s, u"PT"_s);
    const QCommandLineOption titleOption(u"title"_s, u"Title."_s, u"TEXT"_s);
    const QCommandLineOption quantityOption(u"quantity"_s, u"Heatmap quantity."_s, u"Q"_s);
    const QCommandLineOption positionsOption(u"positions"_s, u"Positions A..B-1."_s, u"A:B"_s);
    const QCommandLineOption dimsOption(u"dims"_s, u"Columns."_s, u"LIST"_s);
    const QCommandLineOption threadsOption(u"threads"_s, u"Worker threads."_s, u"N"_s);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOptions({outputOption, sizeOptions.width, sizeOptions.height, sizeOptions.size, sizeOptions.dpi,
                       colormapOption, fontOption, titleOption, quantityOption, positionsOption, dimsOption,
                       threadsOption, helpOption});
    ParamOptions::add(parser);
    parser.addPositionalArgument(u"figure"_s, u"What to draw."_s);

    if (!parser.parse(arguments))
        return fail(err, ExitUsage, parser.errorText() + u" (see posenc export --help)"_s);
    if (parser.isSet(helpOption)) {
        out << usage();
        return ExitDone;
    }
    const QStringList positional = parser.positionalArguments();
    const QString kinds = FigureKinds::names().join(u", "_s);
    if (positional.size() != 1)
        return fail(
            err, ExitUsage,
            u"expected one FIGURE (%1); got %2"_s.arg(kinds, positional.isEmpty() ? u"none"_s : positional.join(u' ')));
    FigureOptions figure;
    if (const auto kind = FigureKinds::fromName(positional.first()))
        figure.kind = *kind;
    else
        return fail(err, ExitUsage, u"FIGURE must be one of %1; got '%2'"_s.arg(kinds, positional.first()));
    const QString path = parser.value(outputOption);
    if (path.isEmpty())
        return fail(err, ExitUsage, u"--output: a file ending in %1 is required"_s.arg(FigureExporter::extensions()));
    const auto format = FigureExporter::formatOf(path);
    if (!format)
        return fail(
            err, ExitUsage,
            u"--output: the format comes from the extension, %1; got '%2'"_s.arg(FigureExporter::extensions(), path));
    const auto size = readSize(parser, sizeOptions);
    if (const auto *error = std::get_if<QString>(&size))
        return fail(err, ExitUsage, *error);

    if (parser.isSet(colormapOption)) {
        figure.colormap = Colormaps::fromName(parser.value(colormapOption));
        if (!figure.colormap)
            return fail(err, ExitUsage,
                        u"--colormap: must be one of %1; got '%2'"_s.arg(Colormaps::names().join(u", "_s),
                                                                         parser.value(colormapOption)));
    }
    if (parser.isSet(fontOption)) {
        const auto points = number(parser.value(fontOption), 4.0, 36.0);
        if (!points)
            return fail(
                err, ExitUsage,
                u"--font-size: must be a number of points in [4, 36]; got '%1'"_s.arg(parser.value(fontOption)));
        figure.fontPointSize = *points;
    }
    if (parser.isSet(titleOption))
        figure.title = parser.value(titleOption);
    if (parser.isSet(quantityOption)) {
        const auto quantity = Quantities::fromName(parser.value(quantityOption));
        if (figure.kind != FigureKind::Heatmap)
            return fail(err, ExitUsage, u"--quantity: only the heatmap figure takes a quantity"_s);
        if (!quantity || !FigureRenderer::heatmapQuantities().contains(*quantity))
            return fail(err, ExitUsage,
                        u"--quantity: must be one of %1; got '%2'"_s.arg(heatmapQuantityNames().join(u", "_s),
                                                                         parser.value(quantityOption)));
        figure.quantity = *quantity;
    }
    if (parser.isSet(positionsOption)) {
        const auto range = ParamText::parseRange(parser.value(positionsOption));
        if (!range)
            return fail(err, ExitUsage,
                        u"--positions: must be A:B, e.g. 0:128; got '%1'"_s.arg(parser.value(positionsOption)));
        figure.positions = std::pair {range->first, range->second};
    }
    if (parser.isSet(dimsOption)) {
        const auto list = ParamText::parseIndexList(parser.value(dimsOption));
        if (!list || list->empty())
            return fail(err, ExitUsage,
                        u"--dims: must list columns, e.g. 0,1,64:68; got '%1'"_s.arg(parser.value(dimsOption)));
        figure.columns = *list;
    }
    int threads = 0;
    if (parser.isSet(threadsOption)) {
        const auto n = number(parser.value(threadsOption), 1, 1024);
        if (!n || *n != std::floor(*n))
            return fail(err, ExitUsage,
                        u"--threads: must be an integer in [1, 1024]; got '%1'"_s.arg(parser.value(threadsOption)));
        threads = static_cast<int>(*n);
    }

    const ParamOptions::Result read = ParamOptions::read(parser);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc export: " << line << '\n';
        return read.exitCode();
    }
    const Engine engine(read.params);
    if (const auto refused = FigureRenderer::check(engine, figure))
        return fail(err, ExitUsage, *refused);

    const auto rendered = FigureFile::render(engine, figure, std::get<FigureSize>(size), *format, {threads, nullptr});
    if (const auto *refused = std::get_if<FigureError>(&rendered)) {
        if (refused->kind == FigureError::OverBudget)
            return fail(err, ExitOverBudget, refused->message);
        return fail(err, ExitUsage, u"--size: %1; give a larger size or a smaller --font-size"_s.arg(refused->message));
    }
    const QByteArray &bytes = std::get<QByteArray>(rendered);
    if (bytes.isEmpty())
        return fail(err, ExitIo, u"%1: the figure could not be encoded"_s.arg(path));
    const auto written
        = writeAtomically(path, [&bytes](QIODevice &device) { return device.write(bytes) == bytes.size(); });
    if (written)
        return fail(err, ExitIo, written->toString());
    return ExitDone;
}

} // namespace posenc
