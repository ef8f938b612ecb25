#include "Sincos2dDetrMap.h"

#include "check/CellTolerance.h"
#include "check/TensorShapes.h"
#include "core/NumberText.h"

#include <algorithm>
#include <array>
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
    std::int64_t skipped = 0; // padded cells whose coordinate float32 cannot hold (see padValue)
};

// An image's valid region, rows 0 .. height - 1 and columns 0 .. width - 1 of the map: the mask's
// not-masked cells, DETR's NestedTensor padding the bottom and the right.
struct Valid
{
    std::int64_t height = 0, width = 0;
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
        out.append({kNormalization,
                    u"the coordinates are %1 where the declared form's are %2"_s.arg(
                        coordinateWords(read.coordinate), coordinateWords(declared.coordinate))});
    if (std::fabs(read.temperature - declared.temperature) > 1e-3 * declared.temperature)
        out.append({kTemperature,
                    u"temperature %1 where the declared form's is %2"_s.arg(
                        NumberText::compact(read.temperature, 6), NumberText::compact(declared.temperature, 6))});
    if (read.rowFirst != declared.rowFirst)
        out.append({kAxesSwapped,
                    u"the column's half comes first (cat((pos_x, pos_y))) where the declared form "
                    "puts the row's first (cat((pos_y, pos_x)))"_s});
    if (read.interleaved != declared.interleaved)
        out.append({kSinCosSplit,
                    read.interleaved ? u"sin and cos interleaved where the declared form has them in "
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

// The map's cells an image at a time, channel c's H·W cells row by row: from a channel-first map
// (B·C·H rows of W) or a flattened one (B·H·W rows of C: [B, C, H, W].flatten(2).permute(0, 2, 1),
// row-major over H then W).
class Images
{
public:
    Images(const TableRows &rows, const std::vector<std::int64_t> &dims, bool flattened)
        : m_rows(rows)
        , m_dims(dims)
        , m_flattened(flattened)
    { }
    const std::vector<std::int64_t> &dims() const { return m_dims; }
    // Image b's cells; false where the file cannot be read.
    bool load(std::int64_t b)
    {
        if (b == m_loaded)
            return true;
        const std::int64_t channels = m_dims[1], cells = m_dims[2] * m_dims[3];
        m_cells.resize(std::size_t(channels * cells));
        QString error;
        if (!m_flattened) {
            if (!m_rows.read(b * channels * m_dims[2], channels * m_dims[2], m_cells.data(), error))
                return false;
        } else {
            std::vector<float> rows(m_cells.size());
            if (!m_rows.read(b * cells, cells, rows.data(), error))
                return false;
            for (std::int64_t p = 0; p < cells; ++p)
                for (std::int64_t c = 0; c < channels; ++c)
                    m_cells[std::size_t(c * cells + p)] = rows[std::size_t(p * channels + c)];
        }
        m_loaded = b;
        return true;
    }
    const float *channel(std::int64_t c) const { return m_cells.data() + c * m_dims[2] * m_dims[3]; }

private:
    const TableRows &m_rows;
    std::vector<std::int64_t> m_dims;
    bool m_flattened;
    std::vector<float> m_cells;
    std::int64_t m_loaded = -1;
};

// The tolerance of a float32 computation stored as `stored`: the value's rounding and the angle's,
// a few units of 2^-24 of the largest coordinate (dim_t >= 1).
double toleranceOf(StoredType stored, const std::vector<std::int64_t> &dims, const Form &f)
{
    const double side = double(std::max(dims[2], dims[3]));
    const double largest = f.coordinate == Coordinate::Count ? side : 2.0 * std::numbers::pi;
    return 2.0 * halfUnit(storedFormat(stored)) + 2.0 * 0x1p-24 + largest * 8.0 * 0x1p-24;
}

// The loaded image's valid region under the halves' order `rowFirst`: PositionEmbeddingSine's
// cumsum of the mask stops growing past it (a padded row repeats the last valid row's y, a padded
// column the last valid column's x), so along column 0 the row's channels repeat from row h to the
// last, and along row 0 the column's channels from column w. A padded cell repeats its last valid
// neighbour bit for bit (the same cumsum through the same operations): equal, not within a rounding,
// which a half type's neighbours of a tall map are.
Valid validOf(const Images &images, bool rowFirst)
{
    const auto &dims = images.dims();
    const std::int64_t channels = dims[1], height = dims[2], width = dims[3];
    const auto repeats = [&](bool byRows, std::int64_t cell, std::int64_t before) {
        for (std::int64_t c = 0; c < channels; ++c) {
            if (((c < channels / 2) == rowFirst) == byRows
                && images.channel(c)[cell] != images.channel(c)[before])
                return false;
        }
        return true;
    };
    // The padding is the constant tail (the cumsum stops growing there for good), not the first
    // repeat: in a half type neighbouring rows of a large map may round alike.
    Valid v {height, width};
    while (v.height > 1 && repeats(true, (v.height - 1) * width, (v.height - 2) * width))
        --v.height;
    while (v.width > 1 && repeats(false, v.width - 1, v.width - 2))
        --v.width;
    return v;
}

// A padded cell's value, where the mask's cumsum along the channel's axis is 0 (a column or row
// past the other axis's valid region): sin 0 or cos 0; nothing for Deformable DETR's coordinate,
// (0 - 0.5) / (0 + 1e-6) * 2π = -3.1e6, whose angle float32 holds to a quarter only.
std::optional<double> padValue(const Form &form, std::int64_t channel, std::int64_t channels)
{
    if (form.coordinate == Coordinate::NormalizedHalf)
        return std::nullopt;
    const std::int64_t j = channel % (channels / 2);
    return (form.interleaved ? j % 2 == 0 : j < channels / 4) ? 0.0 : 1.0;
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
    const double coordinate = coordinateAt(f.coordinate, 0, alongRows(f, 0, channels) ? valid.height : valid.width);
    const double angle = std::atan2(double(images.channel(sinChannel)[0]), double(images.channel(cosChannel)[0]));
    if (!(angle > 0.0) || !(coordinate > 0.0) || angle > coordinate)
        return std::nullopt;
    const double t = std::pow(coordinate / angle, double(half) / double(2 * k));
    if (!std::isfinite(t) || t < 1.0 + 1e-6 || t > 1e12)
        return std::nullopt;
    return t;
}

// One form tried on the loaded image b of valid region `v`, cell by cell.
void tryImage(Tried &t, const Images &images, std::int64_t b, const Valid &v)
{
    const std::int64_t channels = images.dims()[1], height = images.dims()[2], width = images.dims()[3];
    std::vector<double> expected;
    for (std::int64_t c = 0; c < channels; ++c) {
        const bool byRow = alongRows(t.form, c, channels);
        channelValues(t.form, c, channels, byRow ? v.height : v.width, expected);
        const std::optional<double> pad = padValue(t.form, c, channels);
        const float *cells = images.channel(c);
        for (std::int64_t y = 0; y < height; ++y) {
            for (std::int64_t x = 0; x < width; ++x) {
                const bool inside = byRow ? x < v.width : y < v.height;
                if (!inside && !pad) {
                    ++t.skipped;
                    continue;
                }
                const double want = inside
                    ? expected[std::size_t(byRow ? std::min(y, v.height - 1) : std::min(x, v.width - 1))]
                    : *pad;
                const double off = std::fabs(double(cells[y * width + x]) - want);
                if (!(off <= t.largest)) {
                    const std::int64_t skipped = t.skipped;
                    t = {t.form, std::isfinite(off) ? off : INFINITY, b, c, y, x, skipped};
                }
            }
        }
    }
}

// The forms tried: every order, layout and coordinate at temperature 10000 (the published forms'
// first), then each at the temperature its map gives.
std::vector<Tried> candidates(const Images &images, const Valid valid[2])
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
        const auto t = fittedTemperature(f, images, valid[f.rowFirst ? 1 : 0]);
        f.temperature = t.value_or(0.0);
        if (t && std::none_of(out.begin(), out.end(), [&](const Tried &o) {
                return std::fabs(o.form.temperature - *t) <= 1e-3 * *t && o.form.coordinate == f.coordinate
                    && o.form.rowFirst == f.rowFirst && o.form.interleaved == f.interleaved;
            }))
            out.push_back({f});
    }
    return out;
}

// What held the map: the forms within their tolerance, in order, and each image's valid region
// under either order of the halves ([b][rowFirst]).
struct Held
{
    std::vector<Tried> forms;
    std::vector<std::array<Valid, 2>> valid;
};

Held held(Images &images, StoredType stored)
{
    const auto &dims = images.dims();
    Held out;
    const auto alive = [&](const Tried &t) { return t.largest <= toleranceOf(stored, dims, t.form); };
    for (std::int64_t b = 0; b < dims[0]; ++b) {
        if (!images.load(b))
            return {};
        out.valid.push_back({validOf(images, false), validOf(images, true)});
        if (b == 0)
            out.forms = candidates(images, out.valid[0].data());
        for (Tried &t : out.forms) {
            if (alive(t))
                tryImage(t, images, b, out.valid.back()[t.form.rowFirst ? 1 : 0]);
        }
        if (std::none_of(out.forms.begin(), out.forms.end(), alive))
            return {};
    }
    std::erase_if(out.forms, [&](const Tried &t) { return !alive(t); });
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

// The images' valid regions where one is padded: "image 1 valid 12 x 15", else empty.
QString paddingWords(const Held &h, const Form &f, const std::vector<std::int64_t> &dims)
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
           "columns past it holding what PositionEmbeddingSine's pixel mask gives them: the last valid row's y or "
           "column's x, and sin 0, cos 0 where the other axis's cumsum is 0"_s.arg(images.join(u", "_s))
               .arg(dims[2])
               .arg(dims[3]);
}

TableMatch matchOf(const Tried &t, const QString &shapeWords, const std::vector<std::int64_t> &dims, double tolerance)
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
    m.notes.append(u"read as a [%1·%2, %3] table, %4, each channel varying along one axis of the grid"_s.arg(dims[2])
                       .arg(dims[3])
                       .arg(dims[1])
                       .arg(shapeWords));
    if (t.skipped > 0)
        m.notes.append(u"%1 padded cells not compared: Deformable DETR's coordinate there is (0 - 0.5) / (0 + 1e-6) "
                       "* 2π = -3.1e6, whose angle float32 holds to a quarter only"_s.arg(t.skipped));
    return m;
}

std::optional<TableMatch> readMap(Images &images, StoredType stored, const QString &shapeWords, const Params *declared,
                                  const QString &form)
{
    const auto &dims = images.dims();
    const Published *declaredForm = declared ? byWord(form) : nullptr;
    const Held h = held(images, stored);
    const QString layout
        = u"a [B, C, H, W] map of %1 channels over %2 x %3 cells"_s.arg(dims[1]).arg(dims[2]).arg(dims[3]);
    if (h.forms.empty()) {
        if (!declaredForm)
            return std::nullopt;
        TableMatch m;
        m.verdict = CheckVerdict::Mistake;
        m.family = Encoding::Sincos2d;
        m.unreferenced = u"no form of PositionEmbeddingSine's formula holds the map's cells"_s;
        m.diagnosis = u"%1 is no form of PositionEmbeddingSine's formula (any normalisation, temperature, order of "
                      "the halves or of sin and cos, with or without a padded batch's mask), let alone the declared "
                      "%2 (%3)"_s.arg(layout, declaredForm->name, formWords(declaredForm->form));
        return m;
    }
    const Tried &t = h.forms.front();
    const double tolerance = toleranceOf(stored, dims, t.form);
    TableMatch m = matchOf(t, shapeWords, dims, tolerance);
    const Published *as = publishedAs(t.form);
    QString read = u"%1: %2"_s.arg(layout, formWords(t.form));
    if (const QString padding = paddingWords(h, t.form, dims); !padding.isEmpty())
        read += u"; "_s + padding;
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
        m.diagnosis
            = u"PositionEmbeddingSine's formula at parameters none of the forms posenc lists uses: %1; the nearest "
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

} // namespace
const std::vector<Published> &published()
{
    static const std::vector<Published> forms {
        {u"detr-normalized"_s,
         u"DETR's PositionEmbeddingSine, normalize=True"_s,
         u"facebookresearch/detr models/position_encoding.py, PositionEmbeddingSine and build_position_encoding; "
         "transformers models/detr/modeling_detr.py, DetrSinePositionEmbedding (Conditional DETR's the same)"_s,
         {Coordinate::Normalized, 10000.0, true, true}},
        {u"deformable-detr"_s,
         u"Deformable DETR's PositionEmbeddingSine, normalize=True"_s,
         u"fundamentalvision/Deformable-DETR models/position_encoding.py, PositionEmbeddingSine; transformers "
         "models/deformable_detr/modeling_deformable_detr.py, DeformableDetrSinePositionEmbedding; "
         "DAB-Deformable-DETR's "
         "(IDEA-Research/DAB-DETR models/dab_deformable_detr/position_encoding.py) the same"_s,
         {Coordinate::NormalizedHalf, 10000.0, true, true}},
        {u"detr"_s,
         u"DETR's PositionEmbeddingSine, normalize=False"_s,
         u"facebookresearch/detr models/position_encoding.py, PositionEmbeddingSine (its default)"_s,
         {Coordinate::Count, 10000.0, true, true}},
        {u"dab-detr"_s,
         u"DAB-DETR's and DINO's PositionEmbeddingSineHW, normalize=True, temperatures 20"_s,
         u"transformers models/dab_detr/modeling_dab_detr.py, DabDetrSinePositionEmbedding (DabDetrConfig "
         "temperature_height=20, temperature_width=20); IDEA-Research/DINO models/dino/position_encoding.py, "
         "PositionEmbeddingSineHW (config/DINO pe_temperatureH = pe_temperatureW = 20)"_s,
         {Coordinate::Normalized, 20.0, true, true}},
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
                                        const Params *declared, const QString &form)
{
    const std::int64_t channels = rows.cols();
    if (height < 2 || width < 2 || channels < 8 || channels % 4 != 0 || rows.rows() != height * width)
        return std::nullopt;
    Images images(rows, {1, channels, height, width}, true);
    const QString words = u"flattened row-major over the declared %1 x %2 grid (DETR's [C, H, W].flatten(1).T: "
                          "row k the cell at row k / %2, column k mod %2)"_s.arg(height)
                              .arg(width);
    return readMap(images, rows.storedType(), words, declared, byWord(form) ? form : QString());
}

} // namespace posenc::Sincos2dDetrMap
