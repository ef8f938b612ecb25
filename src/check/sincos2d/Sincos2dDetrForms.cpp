// DETR's map forms: the published ones with their citations, each form's coordinates, channels and
// words (Sincos2dDetrMap.h).
#include "check/sincos2d/Sincos2dDetrParts.h"

#include "core/NumberText.h"

#include <cmath>
#include <limits>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::Sincos2dDetrMap {

namespace parts {

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

double paddedCoordinate(Coordinate c, ValueFormat computed)
{
    if (c != Coordinate::NormalizedHalf)
        return 0.0;
    // In float16, 0 + 1e-6 is 1.0133e-6 (a subnormal) and -0.5 over it, -4.93e5, overflows to -inf.
    if (computed == ValueFormat::Float16)
        return -std::numeric_limits<double>::infinity();
    // transformers DeformableDetrSinePositionEmbedding.forward: (y_embed - 0.5) / (y_embed[:, -1:] + eps)
    // * scale, each step rounded to float32.
    return double(float(-0.5f / (0.0f + 1e-6f)) * float(2.0 * std::numbers::pi));
}

Wave waveOf(const Form &form, std::int64_t channel, std::int64_t channels)
{
    const std::int64_t half = channels / 2, j = channel % half, quarter = half / 2;
    const std::int64_t k = form.interleaved ? j / 2 : j % quarter;
    const double exponent = double(2 * k) / double(half);
    return {exponent, std::pow(form.temperature, exponent), form.interleaved ? j % 2 == 0 : j < quarter};
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

} // namespace parts

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

bool alongRows(const Form &form, std::int64_t channel, std::int64_t channels)
{
    return (channel < channels / 2) == form.rowFirst;
}

void channelValues(const Form &form, std::int64_t channel, std::int64_t channels, std::int64_t n,
                   std::vector<double> &out)
{
    const parts::Wave wave = parts::waveOf(form, channel, channels);
    out.resize(std::size_t(n));
    for (std::int64_t i = 0; i < n; ++i) {
        const double angle = parts::coordinateAt(form.coordinate, i, n) / wave.dimT;
        out[std::size_t(i)] = wave.isSin ? std::sin(angle) : std::cos(angle);
    }
}

} // namespace posenc::Sincos2dDetrMap
