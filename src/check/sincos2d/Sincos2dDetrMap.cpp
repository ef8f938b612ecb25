#include "Sincos2dDetrMap.h"

#include "check/TensorShapes.h"
#include "check/sincos2d/Sincos2dDetrParts.h"
#include "core/CountWords.h"
#include "core/NumberText.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::Sincos2dDetrMap {

namespace {

using parts::Images;
using parts::Valid;

// The cell of a part of the map farthest beyond its tolerance under one form, and how many are.
struct Worst
{
    double ratio = 0.0, off = 0.0, tolerance = 0.0;
    std::int64_t batch = 0, channel = 0, row = 0, col = 0;
    std::int64_t beyond = 0;
    void add(double o, double tol, std::int64_t b, std::int64_t c, std::int64_t y, std::int64_t x)
    {
        const double r = std::isfinite(o) ? o / tol : INFINITY;
        beyond += r > 1.0 ? 1 : 0;
        if (!(r <= ratio))
            *this = {r, std::isfinite(o) ? o : INFINITY, tol, b, c, y, x, beyond};
    }
};

// A form tried on the map: its worst cell in the images' valid regions, and in their padding (the
// rows and columns past a valid region, holding what the pixel mask's cumsum gives them).
struct Tried
{
    Form form;
    Worst valid, padding;
    bool dropped = false; // beyond its tolerance in a quarter of the map's cells: no longer tried
    bool holds() const { return valid.ratio <= 1.0 && padding.ratio <= 1.0; }
    const Worst &worst() const { return padding.ratio > valid.ratio ? padding : valid; }
};

// A form's cells on an image of valid region v, channel by channel: along the channel's axis, the
// padded cells' value (the other axis's cumsum 0) and each part's tolerance.
struct Expected
{
    std::vector<std::vector<double>> along;
    std::vector<double> padded, alongTolerance, paddedTolerance;
};

Expected expectedOf(const Form &f, const Valid &v, std::int64_t channels, ValueFormat computed, StoredType stored)
{
    Expected e;
    e.along.resize(std::size_t(channels));
    const double padCoordinate = parts::paddedCoordinate(f.coordinate, computed);
    for (std::int64_t c = 0; c < channels; ++c) {
        const std::int64_t n = alongRows(f, c, channels) ? v.height : v.width;
        channelValues(f, c, channels, n, e.along[std::size_t(c)]);
        const parts::Wave wave = parts::waveOf(f, c, channels);
        const double angle = padCoordinate / wave.dimT;
        e.padded.push_back(wave.isSin ? std::sin(angle) : std::cos(angle));
        const double largest = std::max(std::fabs(parts::coordinateAt(f.coordinate, 0, n)),
                                        std::fabs(parts::coordinateAt(f.coordinate, n - 1, n)));
        e.alongTolerance.push_back(parts::cellTolerance(f, c, channels, largest, computed, stored));
        // A coordinate past the format's range gives NaN cells, compared by equality alone.
        const double padLargest = std::isfinite(padCoordinate) ? std::fabs(padCoordinate) : 0.0;
        e.paddedTolerance.push_back(parts::cellTolerance(f, c, channels, padLargest, computed, stored));
    }
    return e;
}
// The temperature the map's first half gives under `f`'s other parameters: its slowest frequency's
// angle at index 0, atan2(sin, cos), is coordinate / temperature^(2k / num_pos_feats), k the last
// pair's (the exponent nearest 1: the angle's rounding least magnified). `valid` is image 0's region.
std::optional<double> fittedTemperature(const Form &f, const Images &images, const Valid &valid)
{
    const std::int64_t channels = images.dims()[1], half = channels / 2;
    const std::int64_t k = half / 2 - 1;
    const std::int64_t sinChannel = f.interleaved ? 2 * k : k, cosChannel = f.interleaved ? 2 * k + 1 : half / 2 + k;
    if (k < 1)
        return std::nullopt;
    // Cell (0, 0) is index 0 along either axis.
    const double coordinate
        = parts::coordinateAt(f.coordinate, 0, alongRows(f, 0, channels) ? valid.height : valid.width);
    const double angle = std::atan2(double(images.edge(0, sinChannel, 0, 0)), double(images.edge(0, cosChannel, 0, 0)));
    if (!(angle > 0.0) || !(coordinate > 0.0) || angle > coordinate)
        return std::nullopt;
    const double t = std::pow(coordinate / angle, double(half) / double(2 * k));
    if (!std::isfinite(t) || t < 1.0 + 1e-6 || t > 1e12)
        return std::nullopt;
    return t;
}

// The forms tried on image b, cell by cell in the file's order, each on its image's valid region
// ([b][rowFirst]).
bool tryImage(std::vector<Tried> &forms, const Images &images, std::int64_t b,
              const std::vector<std::array<Valid, 2>> &valid, StoredType stored)
{
    const auto &dims = images.dims();
    const std::int64_t channels = dims[1], cells = dims[0] * channels * dims[2] * dims[3];
    std::vector<Expected> expected;
    for (const Tried &t : forms)
        expected.push_back(expectedOf(t.form, valid[std::size_t(b)][t.form.rowFirst ? 1 : 0], channels,
                                      images.computed(), stored));
    return images.visit(b, [&](std::int64_t c, std::int64_t y, std::int64_t x, float value) {
        for (std::size_t i = 0; i < forms.size(); ++i) {
            Tried &t = forms[i];
            if (t.dropped)
                continue;
            const Valid &v = valid[std::size_t(b)][t.form.rowFirst ? 1 : 0];
            const Expected &e = expected[i];
            const bool byRow = alongRows(t.form, c, channels);
            // The other axis inside its valid region: the cumsum along the channel's axis counts,
            // stopping at the last valid row (column); else it is 0.
            const bool counted = byRow ? x < v.width : y < v.height;
            const double want = counted
                ? e.along[std::size_t(c)][std::size_t(byRow ? std::min(y, v.height - 1) : std::min(x, v.width - 1))]
                : e.padded[std::size_t(c)];
            const double tolerance
                = counted ? e.alongTolerance[std::size_t(c)] : e.paddedTolerance[std::size_t(c)];
            Worst &part = y < v.height && x < v.width ? t.valid : t.padding;
            // A cell the form's computation makes NaN (or infinite) holds the same where the map is it.
            const bool same = double(value) == want || (std::isnan(value) && std::isnan(want));
            part.add(same ? 0.0 : std::fabs(double(value) - want), tolerance, b, c, y, x);
            t.dropped = t.valid.beyond > 0 && 4 * (t.valid.beyond + t.padding.beyond) >= cells;
        }
    });
}

// The forms tried: every order, layout and coordinate at temperature 10000 (the published forms'
// first), then each at the temperature its map gives.
std::vector<Tried> candidates(const Images &images, const Valid valid[2])
{
    std::vector<Tried> out;
    for (const Published &p : published())
        out.push_back({p.form, {}, {}});
    for (const bool interleaved : {true, false}) {
        for (const bool rowFirst : {true, false}) {
            for (const Coordinate c : {Coordinate::Normalized, Coordinate::NormalizedHalf, Coordinate::Count}) {
                const Form f {c, 10000.0, rowFirst, interleaved};
                if (std::none_of(out.begin(), out.end(), [&](const Tried &t) { return t.form == f; }))
                    out.push_back({f, {}, {}});
            }
        }
    }
    const std::size_t atBase = out.size();
    for (std::size_t i = 0; i < atBase; ++i) {
        Form f = out[i].form;
        const auto t = fittedTemperature(f, images, valid[f.rowFirst ? 1 : 0]);
        f.temperature = t.value_or(0.0);
        if (t && std::none_of(out.begin(), out.end(), [&](const Tried &o) {
                return std::fabs(o.form.temperature - *t) <= 1e-3 * *t && o.form.coordinate == f.coordinate
                    && o.form.rowFirst == f.rowFirst && o.form.interleaved == f.interleaved;
            }))
            out.push_back({f, {}, {}});
    }
    return out;
}

// How the forms fared on the map, in order, and each image's valid region under either order of
// the halves ([b][rowFirst]).
struct Held
{
    std::vector<Tried> forms;
    std::vector<std::array<Valid, 2>> valid;
    std::vector<bool> validHeld; // per image: some form holds its valid region
};

// Every form tried on every image, the valid regions found from the images' edges (an image
// `shrunk`: each padded axis one shorter); nothing where the file cannot be read.
std::optional<Held> held(const Images &images, StoredType stored, const std::vector<bool> &shrunk)
{
    Held out;
    for (std::int64_t b = 0; b < images.dims()[0]; ++b) {
        out.valid.push_back(shrunk[std::size_t(b)] ? std::array {images.shrunk(b, false), images.shrunk(b, true)}
                                                   : std::array {images.validOf(b, false), images.validOf(b, true)});
    }
    out.forms = candidates(images, out.valid[0].data());
    for (std::int64_t b = 0; b < images.dims()[0]; ++b) {
        std::vector<std::int64_t> before;
        for (const Tried &t : out.forms)
            before.push_back(t.valid.beyond);
        if (!tryImage(out.forms, images, b, out.valid, stored))
            return std::nullopt;
        bool any = false;
        for (std::size_t i = 0; i < out.forms.size(); ++i)
            any = any || (!out.forms[i].dropped && out.forms[i].valid.beyond == before[i]);
        out.validHeld.push_back(any);
    }
    return out;
}

// What PositionEmbeddingSine's pixel mask gives the cells past an image's valid region under `f`,
// computed in `computed`.
QString paddedValues(const Form &f, ValueFormat computed)
{
    const QString zero = f.coordinate != Coordinate::NormalizedHalf ? u"the coordinate 0 (sin 0 = 0, cos 0 = 1)"_s
        : computed == ValueFormat::Float16
        ? u"the coordinate (0 - 0.5) / (0 + 1e-6) * 2π, which overflows float16 to -inf, so each channel's sin or "
          "cos of it over dim_t is NaN, as the form computed in float16 gives it"_s
        : u"the coordinate (0 - 0.5) / (0 + 1e-6) * 2π, -3141592.75 in float32, each channel's sin or cos of it "
          "over dim_t"_s;
    return u"the last valid row's y or column's x, and where the other axis's cumsum is 0 %1"_s.arg(zero);
}

// The images' valid regions where one is padded: "image 1 7 x 5", else empty.
QString paddingWords(const Held &h, const Form &f, const std::vector<std::int64_t> &dims, ValueFormat computed)
{
    QStringList images;
    bool padded = false;
    for (std::size_t b = 0; b < h.valid.size(); ++b) {
        const Valid &v = h.valid[b][f.rowFirst ? 1 : 0];
        padded = padded || v.height < dims[2] || v.width < dims[3];
        images.append(u"image %1 %2 x %3"_s.arg(b).arg(v.height).arg(v.width));
    }
    if (!padded)
        return {};
    return u"a padded batch: each image is the form on its own valid region (%1 of the %2 x %3 map), the rows and "
           "columns past it holding what PositionEmbeddingSine's pixel mask gives them: %4"_s.arg(images.join(u", "_s))
               .arg(dims[2])
               .arg(dims[3])
               .arg(paddedValues(f, computed));
}

QString formatWords(ValueFormat f)
{
    return f == ValueFormat::BFloat16 ? u"bfloat16"_s : f == ValueFormat::Float16 ? u"float16"_s : u"float32"_s;
}

TableMatch matchOf(const Tried &t, const QString &shapeWords, const std::vector<std::int64_t> &dims, ValueFormat f)
{
    TableMatch m;
    m.family = Encoding::Sincos2d;
    m.table = u"sincos-2d"_s;
    m.findings = {{u"grid"_s, u"%1x%2"_s.arg(dims[2]).arg(dims[3])},
                  {u"halves"_s, t.form.rowFirst ? u"DETR: row, column"_s : u"column, row"_s}};
    m.positionOffset = t.form.coordinate == Coordinate::Count ? 1 : 0;
    const Worst &w = t.worst();
    m.unreferenced = u"a [B, C, H, W] map is compared cell by cell with PositionEmbeddingSine's formula in float64, "
                     "each channel within what a %1 computation's rounding gives it (the farthest cell %2 from it, "
                     "of %3 allowed), not streamed as a table of positions"_s.arg(formatWords(f),
                                                                                  NumberText::compact(w.off, 3),
                                                                                  NumberText::compact(w.tolerance, 3));
    m.notes.append(u"read as a [%1·%2, %3] table, %4, each channel varying along one axis of the grid"_s.arg(dims[2])
                       .arg(dims[3])
                       .arg(dims[1])
                       .arg(shapeWords));
    return m;
}

QString cellWords(const Worst &w)
{
    return u"image %1, channel %2, row %3, column %4 is %5 from it (%6 allowed)"_s.arg(w.batch)
        .arg(w.channel)
        .arg(w.row)
        .arg(w.col)
        .arg(NumberText::compact(w.off, 3), NumberText::compact(w.tolerance, 3));
}

// No form holds every cell. A form holding the valid regions but not the padding: the padding is the
// mistake (zeros, a constant, the edge replicated: no pixel mask gives it). A form most cells hold:
// unknown undeclared, a mistake with no name where --map-form declares the form. Else nothing
// undeclared: the map is no sine map of DETR's.
std::optional<TableMatch> noFormHolds(const Images &images, StoredType stored, const Held &h, const QString &layout,
                                      const QString &shapeWords, const Published *declaredForm)
{
    const auto &dims = images.dims();
    const auto validHolds = [](const Tried &t) { return t.valid.ratio <= 1.0; };
    const Tried *padded = nullptr;
    const Held *read = &h;
    if (const auto it = std::find_if(h.forms.begin(), h.forms.end(), validHolds); it != h.forms.end())
        padded = &*it;
    std::optional<Held> shrunk;
    if (!padded) {
        // The images no form holds the valid region of, read with the first cell of the constant tail
        // taken for padding.
        std::vector<bool> shrink;
        for (const bool holds : h.validHeld)
            shrink.push_back(!holds);
        shrunk = held(images, stored, shrink);
        const auto it = shrunk ? std::find_if(shrunk->forms.begin(), shrunk->forms.end(), validHolds)
                               : h.forms.end();
        if (shrunk && shrunk->valid != h.valid && it != shrunk->forms.end()) {
            padded = &*it;
            read = &*shrunk;
        }
    }
    if (padded) {
        TableMatch m = matchOf(*padded, shapeWords, dims, images.computed());
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = {kPadding};
        const Published *as = parts::publishedAs(padded->form);
        m.referenceText = as ? as->name : parts::nearest(padded->form).name;
        m.diagnosis = u"%1: each image's valid region is %2 (%3; %4), but its padding is not what "
                      "PositionEmbeddingSine's pixel mask gives it (%5): %6, the farthest "
                      "%7"_s
                          .arg(layout, m.referenceText, parts::formWords(padded->form),
                               paddingWords(*read, padded->form, dims, images.computed()),
                               paddedValues(padded->form, images.computed()))
                          .arg(CountWords::counted(padded->padding.beyond, u"padded cell deviates"_s,
                                                   u"padded cells deviate"_s))
                          .arg(cellWords(padded->padding));
        return m;
    }
    const auto best = std::min_element(h.forms.begin(), h.forms.end(), [](const Tried &a, const Tried &b) {
        return a.valid.beyond + a.padding.beyond < b.valid.beyond + b.padding.beyond;
    });
    const std::int64_t cells = dims[0] * dims[1] * dims[2] * dims[3];
    const bool mostHold = best != h.forms.end() && 4 * (best->valid.beyond + best->padding.beyond) < cells;
    if (!declaredForm && !mostHold)
        return std::nullopt;
    TableMatch m;
    m.family = Encoding::Sincos2d;
    m.verdict = declaredForm ? CheckVerdict::Mistake : CheckVerdict::Unknown;
    m.unreferenced = u"no form of PositionEmbeddingSine's formula holds the map's cells"_s;
    m.diagnosis = u"%1 is no form of PositionEmbeddingSine's formula (any normalisation, temperature, order of the "
                  "halves or of sin and cos, with or without a padded batch's mask)"_s.arg(layout);
    if (declaredForm)
        m.diagnosis += u", let alone the declared %1 (%2)"_s.arg(declaredForm->name, parts::formWords(declaredForm->form));
    if (mostHold)
        m.diagnosis += u"; nearest is %1 (%2), which %3 of its %4 cells deviate from, the farthest %5"_s.arg(
                           parts::nearest(best->form).name, parts::formWords(best->form))
                           .arg(best->valid.beyond + best->padding.beyond)
                           .arg(cells)
                           .arg(cellWords(best->worst()));
    return m;
}

std::optional<TableMatch> readMap(Images &images, StoredType stored, const QString &shapeWords, const Params *declared,
                                  const QString &form)
{
    const auto &dims = images.dims();
    const Published *declaredForm = declared ? parts::byWord(form) : nullptr;
    if (!images.scan())
        return std::nullopt;
    const std::optional<Held> read = held(images, stored, std::vector<bool>(std::size_t(dims[0]), false));
    if (!read)
        return std::nullopt;
    const QString layout
        = u"a [B, C, H, W] map of %1 channels over %2 x %3 cells"_s.arg(dims[1]).arg(dims[2]).arg(dims[3]);
    const auto t = std::find_if(read->forms.begin(), read->forms.end(), [](const Tried &f) { return f.holds(); });
    // A NaN no form's computation gives where it lies is refused where the map is read as a table,
    // the cell named (exit 3); one a form's faithful computation gives (Deformable DETR's padding in
    // float16) is that form's cell.
    if (t == read->forms.end() && images.hasNaN())
        return std::nullopt;
    if (t == read->forms.end())
        return noFormHolds(images, stored, *read, layout, shapeWords, declaredForm);
    TableMatch m = matchOf(*t, shapeWords, dims, images.computed());
    const Published *as = parts::publishedAs(t->form);
    QString words = u"%1: %2"_s.arg(layout, parts::formWords(t->form));
    if (const QString padding = paddingWords(*read, t->form, dims, images.computed()); !padding.isEmpty())
        words += u"; "_s + padding;
    if (as && (!declaredForm || declaredForm == as)) {
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = u"%1 (%2)"_s.arg(as->name, as->source);
        m.referenceText = as->name;
        m.diagnosis = u"%1: %2"_s.arg(as->name, words);
        return m;
    }
    // The form declared (--map-form), else the nearest published one, whose parameters differ.
    const Published &against = declaredForm ? *declaredForm : parts::nearest(t->form);
    m.referenceText = against.name;
    const auto differ = parts::differences(t->form, against.form);
    QStringList said;
    for (const auto &[id, text] : differ)
        said.append(text);
    // A form the registry does not list is a variant, declared or not, unless --map-form names the
    // form the map should be: only then does a parameter that differs make a mistake.
    if (!declaredForm) {
        m.verdict = CheckVerdict::Variant;
        m.diagnosis
            = u"PositionEmbeddingSine's formula at parameters none of the forms posenc lists uses: %1; the nearest "
              "published form is %2 (%3): %4"_s.arg(words, against.name, against.source, said.join(u"; "_s));
        m.notes.append(u"declare the form (--expect sincos-2d --map-form WORD: %1) to have the map checked "
                       "against it"_s.arg(Sincos2dDetrMap::formWords().join(u", "_s)));
        return m;
    }
    m.verdict = CheckVerdict::Mistake;
    for (const auto &[id, text] : differ)
        m.mistakes.append(id);
    m.diagnosis = u"%1 where %2 is declared: %3"_s.arg(words, against.name, said.join(u"; "_s));
    return m;
}

} // namespace
std::optional<std::vector<std::int64_t>> mapDims(const std::vector<std::int64_t> &shape, const TableRows &rows)
{
    std::vector<std::int64_t> dims;
    for (const std::int64_t d : shape) {
        if (d != 1 || !dims.empty())
            dims.push_back(d);
    }
    if (dims.size() == 3)
        dims.insert(dims.begin(), 1);
    if (dims.size() != 4)
        return std::nullopt;
    std::int64_t mapRows = 0;
    if (dims[0] < 1 || dims[1] < 8 || dims[1] % 4 != 0 || dims[2] < 2 || dims[3] < 2 || rows.cols() != dims[3]
        || __builtin_mul_overflow(dims[0] * dims[1], dims[2], &mapRows) || rows.rows() != mapRows)
        return std::nullopt;
    return dims;
}

std::optional<TableMatch> read(const std::vector<std::int64_t> &shape, const TableRows &rows, const Params *declared,
                               const QString &form)
{
    const auto dims = mapDims(shape, rows);
    if (!dims)
        return std::nullopt;
    Images images(rows, *dims, false);
    const QString words
        = u"channels first (shape %1: %2 map%3 of %4 channels over %5 x %6 cells)"_s.arg(TensorShapes::shapeText(shape))
              .arg((*dims)[0])
              .arg((*dims)[0] > 1 ? u"s"_s : QString())
              .arg((*dims)[1])
              .arg((*dims)[2])
              .arg((*dims)[3]);
    return readMap(images, rows.storedType(), words, declared, form);
}

std::optional<TableMatch> readFlattened(const TableRows &rows, std::int64_t height, std::int64_t width,
                                        const Params *declared, const QString &form, std::int64_t images)
{
    const std::int64_t channels = rows.cols();
    if (height < 2 || width < 2 || channels < 8 || channels % 4 != 0 || images < 1
        || rows.rows() != images * height * width)
        return std::nullopt;
    Images map(rows, {images, channels, height, width}, true);
    const QString words = u"flattened row-major over the declared %1 x %2 grid (DETR's [C, H, W].flatten(1).T: "
                          "row k the cell at row k / %2, column k mod %2)"_s.arg(height)
                              .arg(width);
    return readMap(map, rows.storedType(), words, declared, parts::byWord(form) ? form : QString());
}

} // namespace posenc::Sincos2dDetrMap
