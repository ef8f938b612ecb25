#include "Sincos2dDetrMap.h"

#include "check/CellTolerance.h"
#include "check/TensorShapes.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::Sincos2dDetrMap {

namespace {

// A form tried on the map: the largest cell's distance from it so far, and where.
struct Tried
{
    Form form;
    double largest = 0.0;
    std::int64_t batch = 0, channel = 0, row = 0, col = 0;
};

// The coordinate of index i of n along an axis: the cumsum i + 1, normalised by n + 1e-6 as float32
// holds it (the cumsum's dtype).
double coordinateAt(Coordinate c, std::int64_t i, std::int64_t n)
{
    const double denominator = double(float(double(n) + 1e-6));
    switch (c) {
    case Coordinate::Count:
        return double(i + 1);
    case Coordinate::Normalized:
        return double(i + 1) / denominator * 2.0 * std::numbers::pi;
    case Coordinate::NormalizedHalf:
        return (double(i) + 0.5) / denominator * 2.0 * std::numbers::pi;
    }
    return 0.0;
}

QString coordinateWords(Coordinate c)
{
    switch (c) {
    case Coordinate::Count:
        return u"the cumsum 1 .. n itself (normalize=False)"_s;
    case Coordinate::Normalized:
        return u"cumsum / (n + 1e-6) * 2π (normalize=True)"_s;
    case Coordinate::NormalizedHalf:
        return u"(cumsum - 0.5) / (n + 1e-6) * 2π (Deformable DETR's normalize=True)"_s;
    }
    return {};
}

QString formWords(const Form &f)
{
    return u"coordinates %1, temperature %2, the %3's half first, sin and cos %4"_s.arg(
        coordinateWords(f.coordinate), NumberText::compact(f.temperature, 6), f.rowFirst ? u"row"_s : u"column"_s,
        f.interleaved ? u"interleaved (stack and flatten)"_s : u"in halves (cat)"_s);
}

// The parameters in which `read` differs from `declared`: each mistake with both values.
QList<std::pair<QString, QString>> differences(const Form &read, const Form &declared)
{
    QList<std::pair<QString, QString>> out;
    if (read.coordinate != declared.coordinate)
        out.append({kNormalization, u"the coordinates are %1 where the declared form's are %2"_s.arg(
                                        coordinateWords(read.coordinate), coordinateWords(declared.coordinate))});
    if (std::fabs(read.temperature - declared.temperature) > 1e-3 * declared.temperature)
        out.append({kTemperature, u"temperature %1 where the declared form's is %2"_s.arg(
                                      NumberText::compact(read.temperature, 6),
                                      NumberText::compact(declared.temperature, 6))});
    if (read.rowFirst != declared.rowFirst)
        out.append({kAxesSwapped, u"the column's half comes first (cat((pos_x, pos_y))) where the declared form "
                                  "puts the row's first (cat((pos_y, pos_x)))"_s});
    if (read.interleaved != declared.interleaved)
        out.append({kSinCosSplit, read.interleaved ? u"sin and cos interleaved where the declared form has them in "
                                                     "halves"_s
                                                   : u"sin and cos in halves of each axis's channels (cat) where the "
                                                     "declared form interleaves them (stack((sin, cos)).flatten)"_s});
    return out;
}

// The published form nearest `f`: the fewest parameters differing, the list's order after.
const Published &nearest(const Form &f)
{
    const Published *best = &published().front();
    qsizetype fewest = differences(f, best->form).size();
    for (const Published &p : published()) {
        if (const qsizetype n = differences(f, p.form).size(); n < fewest) {
            fewest = n;
            best = &p;
        }
    }
    return *best;
}

// The temperature the map's first half gives under `f`'s other parameters: its slowest frequency's
// angle at index 0, atan2(sin, cos), is coordinate / temperature^(2k / num_pos_feats), k the last
// pair's (the exponent nearest 1: the angle's rounding least magnified).
std::optional<double> fittedTemperature(const Form &f, const TableRows &rows, const std::vector<std::int64_t> &dims)
{
    const std::int64_t channels = dims[1], height = dims[2], width = dims[3], half = channels / 2;
    const std::int64_t k = half / 2 - 1;
    const std::int64_t sinChannel = f.interleaved ? 2 * k : k, cosChannel = f.interleaved ? 2 * k + 1 : half / 2 + k;
    if (k < 1)
        return std::nullopt;
    std::vector<float> s(static_cast<std::size_t>(width)), c(static_cast<std::size_t>(width));
    QString error;
    if (!rows.read(sinChannel * height, 1, s.data(), error) || !rows.read(cosChannel * height, 1, c.data(), error))
        return std::nullopt;
    // Cell (0, 0) is index 0 along either axis.
    const double coordinate = coordinateAt(f.coordinate, 0, alongRows(f, 0, channels) ? height : width);
    const double angle = std::atan2(double(s[0]), double(c[0]));
    if (!(angle > 0.0) || !(coordinate > 0.0) || angle > coordinate)
        return std::nullopt;
    const double t = std::pow(coordinate / angle, double(half) / double(2 * k));
    if (!std::isfinite(t) || t < 1.0 + 1e-6 || t > 1e12)
        return std::nullopt;
    return t;
}

// The tolerance of a float32 computation stored as `stored`: the value's rounding and the angle's,
// a few units of 2^-24 of the largest coordinate (dim_t >= 1).
double toleranceOf(StoredType stored, const std::vector<std::int64_t> &dims, const Form &f)
{
    const double side = double(std::max(dims[2], dims[3]));
    const double largest = f.coordinate == Coordinate::Count ? side : 2.0 * std::numbers::pi;
    return 2.0 * halfUnit(storedFormat(stored)) + 2.0 * 0x1p-24 + largest * 8.0 * 0x1p-24;
}

// Every form in `forms` tried cell by cell; those within their tolerance kept, in order.
std::vector<Tried> held(std::vector<Tried> forms, const TableRows &rows, const std::vector<std::int64_t> &dims)
{
    const std::int64_t batches = dims[0], channels = dims[1], height = dims[2], width = dims[3];
    std::vector<float> cells(static_cast<std::size_t>(height * width));
    std::vector<double> expected;
    const auto alive = [&](const Tried &t) { return t.largest <= toleranceOf(rows.storedType(), dims, t.form); };
    for (std::int64_t b = 0; b < batches; ++b) {
        for (std::int64_t c = 0; c < channels; ++c) {
            QString error;
            if (!rows.read((b * channels + c) * height, height, cells.data(), error))
                return {};
            for (Tried &t : forms) {
                if (!alive(t))
                    continue;
                const bool byRow = alongRows(t.form, c, channels);
                channelValues(t.form, c, channels, byRow ? height : width, expected);
                for (std::int64_t y = 0; y < height; ++y) {
                    for (std::int64_t x = 0; x < width; ++x) {
                        const double off = std::fabs(double(cells[std::size_t(y * width + x)])
                                                     - expected[std::size_t(byRow ? y : x)]);
                        if (!(off <= t.largest))
                            t = {t.form, std::isfinite(off) ? off : INFINITY, b, c, y, x};
                    }
                }
            }
            if (std::none_of(forms.begin(), forms.end(), alive))
                return {};
        }
    }
    std::erase_if(forms, [&](const Tried &t) { return !alive(t); });
    return forms;
}

// The forms tried: every order, layout and coordinate at temperature 10000 (the published forms'
// first), then each at the temperature its map gives.
std::vector<Tried> candidates(const TableRows &rows, const std::vector<std::int64_t> &dims)
{
    std::vector<Tried> out;
    for (const Published &p : published())
        out.push_back({p.form});
    for (const bool interleaved : {true, false}) {
        for (const bool rowFirst : {true, false}) {
            for (const Coordinate c : {Coordinate::Normalized, Coordinate::NormalizedHalf, Coordinate::Count}) {
                const Form f {c, 10000.0, rowFirst, interleaved};
                if (std::none_of(out.begin(), out.end(), [&](const Tried &t) { return t.form == f; }))
                    out.push_back({f});
            }
        }
    }
    const std::size_t atBase = out.size();
    for (std::size_t i = 0; i < atBase; ++i) {
        Form f = out[i].form;
        if (const auto t = fittedTemperature(f, rows, dims); t && std::fabs(*t - 10000.0) > 10.0) {
            f.temperature = *t;
            out.push_back({f});
        }
    }
    return out;
}

const Published *publishedAs(const Form &f)
{
    for (const Published &p : published()) {
        if (p.form == f)
            return &p;
    }
    return nullptr;
}

const Published *byWord(const QString &word)
{
    for (const Published &p : published()) {
        if (p.word == word)
            return &p;
    }
    return nullptr;
}

TableMatch matchOf(const Tried &t, const std::vector<std::int64_t> &shape, const std::vector<std::int64_t> &dims,
                   double tolerance)
{
    TableMatch m;
    m.family = Encoding::Sincos2d;
    m.table = u"sincos-2d"_s;
    m.findings = {{u"grid"_s, u"%1x%2"_s.arg(dims[2]).arg(dims[3])},
                  {u"halves"_s, t.form.rowFirst ? u"DETR: row, column"_s : u"column, row"_s}};
    m.positionOffset = t.form.coordinate == Coordinate::Count ? 1 : 0;
    m.unreferenced = u"a [B, C, H, W] map is compared cell by cell with PositionEmbeddingSine's formula in float64 "
                     "(the largest cell %1 from it, within float32's %2), not streamed as a table of positions"_s.arg(
                         NumberText::compact(t.largest, 3), NumberText::compact(tolerance, 3));
    m.notes.append(u"read as a [%1·%2, %3] table, channels first (shape %4: %5 map%6 of %3 channels over %1 x %2 "
                   "cells), each channel varying along one axis of the grid"_s.arg(dims[2])
                       .arg(dims[3])
                       .arg(dims[1])
                       .arg(TensorShapes::shapeText(shape))
                       .arg(dims[0])
                       .arg(dims[0] > 1 ? u"s, each alike"_s : QString()));
    return m;
}

} // namespace

const std::vector<Published> &published()
{
    static const std::vector<Published> forms {
        {u"detr-normalized"_s, u"DETR's PositionEmbeddingSine, normalize=True"_s,
         u"facebookresearch/detr models/position_encoding.py, PositionEmbeddingSine and build_position_encoding; "
         "transformers models/detr/modeling_detr.py, DetrSinePositionEmbedding (Conditional DETR's the same)"_s,
         {Coordinate::Normalized, 10000.0, true, true}},
        {u"deformable-detr"_s, u"Deformable DETR's PositionEmbeddingSine, normalize=True"_s,
         u"fundamentalvision/Deformable-DETR models/position_encoding.py, PositionEmbeddingSine; transformers "
         "models/deformable_detr/modeling_deformable_detr.py, DeformableDetrSinePositionEmbedding"_s,
         {Coordinate::NormalizedHalf, 10000.0, true, true}},
        {u"detr"_s, u"DETR's PositionEmbeddingSine, normalize=False"_s,
         u"facebookresearch/detr models/position_encoding.py, PositionEmbeddingSine (its default)"_s,
         {Coordinate::Count, 10000.0, true, true}},
    };
    return forms;
}

QStringList formWords()
{
    QStringList words;
    for (const Published &p : published())
        words.append(p.word);
    words.append(kLoftrWord);
    return words;
}

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

bool alongRows(const Form &form, std::int64_t channel, std::int64_t channels)
{
    return (channel < channels / 2) == form.rowFirst;
}

void channelValues(const Form &form, std::int64_t channel, std::int64_t channels, std::int64_t n,
                   std::vector<double> &out)
{
    const std::int64_t half = channels / 2, j = channel % half, quarter = half / 2;
    const bool isSin = form.interleaved ? j % 2 == 0 : j < quarter;
    const std::int64_t k = form.interleaved ? j / 2 : j % quarter;
    const double dimT = std::pow(form.temperature, double(2 * k) / double(half));
    out.resize(std::size_t(n));
    for (std::int64_t i = 0; i < n; ++i) {
        const double coordinate = coordinateAt(form.coordinate, i, n);
        out[std::size_t(i)] = isSin ? std::sin(coordinate / dimT) : std::cos(coordinate / dimT);
    }
}

std::optional<TableMatch> read(const std::vector<std::int64_t> &shape, const TableRows &rows, const Params *declared,
                                const QString &form)
{
    const auto dims = mapDims(shape, rows);
    if (!dims)
        return std::nullopt;
    const Published *declaredForm = declared ? byWord(form) : nullptr;
    const std::vector<Tried> forms = held(candidates(rows, *dims), rows, *dims);
    const QString layout = u"a [B, C, H, W] map of %1 channels over %2 x %3 cells"_s.arg((*dims)[1])
                               .arg((*dims)[2])
                               .arg((*dims)[3]);
    if (forms.empty()) {
        if (!declaredForm)
            return std::nullopt;
        TableMatch m;
        m.verdict = CheckVerdict::Mistake;
        m.family = Encoding::Sincos2d;
        m.unreferenced = u"no form of PositionEmbeddingSine's formula holds the map's cells"_s;
        m.diagnosis = u"%1 is no form of PositionEmbeddingSine's formula (any normalisation, temperature, order of "
                      "the halves or of sin and cos), let alone the declared %2 (%3)"_s.arg(layout, declaredForm->name,
                                                                                          formWords(declaredForm->form));
        return m;
    }
    const Tried &t = forms.front();
    const double tolerance = toleranceOf(rows.storedType(), *dims, t.form);
    TableMatch m = matchOf(t, shape, *dims, tolerance);
    const Published *as = publishedAs(t.form);
    const QString read = u"%1: %2"_s.arg(layout, formWords(t.form));
    if (as && (!declaredForm || declaredForm == as)) {
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = u"%1 (%2)"_s.arg(as->name, as->source);
        m.referenceText = as->name;
        m.diagnosis = u"%1: %2"_s.arg(as->name, read);
        return m;
    }
    // The form declared (--map-form), else the nearest published one, whose parameters differ.
    const Published &against = declaredForm ? *declaredForm : nearest(t.form);
    m.referenceText = against.name;
    const auto differ = differences(t.form, against.form);
    QStringList said;
    for (const auto &[id, words] : differ)
        said.append(words);
    // A form the registry does not list is a variant, declared or not, unless --map-form names the
    // form the map should be: only then does a parameter that differs make a mistake.
    if (!declaredForm) {
        m.verdict = CheckVerdict::Variant;
        m.diagnosis = u"PositionEmbeddingSine's formula at parameters none of the forms posenc lists uses: %1; the nearest "
                      "published form is %2 (%3): %4"_s.arg(read, against.name, against.source, said.join(u"; "_s));
        m.notes.append(u"declare the form (--expect sincos-2d --map-form WORD: %1) to have the map checked "
                       "against it"_s.arg(Sincos2dDetrMap::formWords().join(u", "_s)));
        return m;
    }
    m.verdict = CheckVerdict::Mistake;
    for (const auto &[id, words] : differ)
        m.mistakes.append(id);
    m.diagnosis = u"%1 where %2 is declared: %3"_s.arg(read, against.name, said.join(u"; "_s));
    return m;
}

} // namespace posenc::Sincos2dDetrMap
