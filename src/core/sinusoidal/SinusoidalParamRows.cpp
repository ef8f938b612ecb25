#include "SinusoidalParamRows.h"

#include "Frequencies.h"
#include "core/TrContext.h"

#include "core/NumberText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::SinusoidalParamRows {

namespace {

constexpr TrContext tr {"SinusoidalParamRows"};

// The family's parameters have no say under another encoding, nor without PE columns.
std::optional<IdleReason> sinusoidalIdle(const Params &params)
{
    if (const auto idle = ParamRows::otherEncoding(params, Encoding::Sinusoidal))
        return idle;
    if (params.peColumns() == 0)
        return IdleReason {IdleReason::Code::NoPeColumns, tr("concat with pe_dims 0 leaves no column for the PE.")};
    return std::nullopt;
}

// diffusers' flip_sin_to_cos (src/diffusers/models/embeddings.py, get_timestep_embedding): the split
// layout's [sin | cos] flipped to [cos | sin]. The interleaved layout leaves it unread.
ParamSpec flipRow()
{
    ParamSpec s = ParamRows::switchRow(u"flip-sin-to-cos"_s, ParamGroup::Family,
                                       [](Params &p) -> bool & { return p.sinusoidal.flipSinToCos; });
    s.help = u"split layout only: the cosines before the sines, [cos | sin], as diffusers' flip_sin_to_cos=True"_s;
    s.label = u"flip_sin_to_cos"_s;
    s.controlText = u"cosines first: [cos | sin]"_s;
    s.idle = [](const Params &p) -> std::optional<IdleReason> {
        if (const auto idle = sinusoidalIdle(p))
            return idle;
        if (p.sinusoidal.layout != Layout::Split)
            return IdleReason {IdleReason::Code::FamilySetting, tr("only the split layout reads flip_sin_to_cos.")};
        return std::nullopt;
    };
    s.formula = [](const Params &) {
        return tr("diffusers' get_timestep_embedding(flip_sin_to_cos=True): the split table's halves exchanged, "
                  "the cosines cos(p·w<sub>i</sub>) in the first columns and the sines after them (Stable "
                  "Diffusion, SDXL, DiT, Wan, FLUX's timestep embedders).");
    };
    return s;
}

// diffusers' scales are 1 and 1000; past 10^6 the angles of 2^24 positions leave a double's exactness.
constexpr double kMaxTimestepScale = 1e6;

bool scaleIsPositive(const Params &p)
{
    return p.sinusoidal.timestepScale > 0.0 && p.sinusoidal.timestepScale <= kMaxTimestepScale;
}

// The largest |shift| whose base b^(h / (h - s)) a double holds: the check's bound.
bool shiftKeepsBase(const Params &p)
{
    const std::int64_t k = p.peColumns();
    const double s = p.sinusoidal.freqShift;
    if (!std::isfinite(s))
        return false;
    if (k == 0 || s == 0.0)
        return true;
    const double b = p.sinusoidal.frequencyBase(k);
    return 2.0 * s < static_cast<double>(k) && std::isfinite(b) && b > 1.0;
}

// diffusers' scale c: every angle c * p * w_i.
ParamSpec scaleRow()
{
    ParamSpec s = ParamRows::numberRow(u"timestep-scale"_s, ParamGroup::Family,
                                       [](Params &p) -> double & { return p.sinusoidal.timestepScale; });
    s.valueName = u"C"_s;
    s.help = u"diffusers' scale c of get_timestep_embedding: the angle c * p * w_i (1000 for AuraFlow, Qwen-Image)"_s;
    s.label = u"timestep_scale"_s;
    s.allowed = [](const Params &) { return u"a number in (0, 1000000]"_s; };
    s.check = [](const Params &p) -> std::optional<ParamError> {
        if (scaleIsPositive(p))
            return std::nullopt;
        return ParamError {u"timestep-scale"_s, u"a number in (0, 1000000]"_s, QString(),
                           NumberText::exact(p.sinusoidal.timestepScale)};
    };
    s.idle = sinusoidalIdle;
    s.formula = [](const Params &) {
        return tr("diffusers' get_timestep_embedding(scale=c): every angle c·p·w<sub>i</sub>, as a flow model scales "
                  "its timesteps in [0, 1] back to 0 … 1000 (AuraFlow, Qwen-Image, PRX: c = 1000). 1 is the "
                  "paper's.");
    };
    return s;
}

// diffusers' downscale_freq_shift s: w_i = b^(-i/(d/2 - s)).
ParamSpec shiftRow()
{
    ParamSpec s = ParamRows::numberRow(u"freq-shift"_s, ParamGroup::Family,
                                       [](Params &p) -> double & { return p.sinusoidal.freqShift; });
    s.valueName = u"S"_s;
    s.help = u"diffusers' downscale_freq_shift s of w_i = b^(-i/(d/2 - s)): 0 the paper's, 1 half_dim - 1's"_s;
    s.label = u"freq_shift"_s;
    s.allowed = [](const Params &) { return u"a finite number below d/2 whose base b^(d/(d - 2s)) is finite"_s; };
    s.check = [](const Params &p) -> std::optional<ParamError> {
        if (shiftKeepsBase(p))
            return std::nullopt;
        return ParamError {u"freq-shift"_s, u"a finite number below d/2 whose base b^(d/(d - 2s)) is finite"_s,
                           QString(), NumberText::exact(p.sinusoidal.freqShift)};
    };
    s.idle = sinusoidalIdle;
    s.formula = [](const Params &) {
        return tr("diffusers' get_timestep_embedding(downscale_freq_shift=s): the exponent −ln(b)·i divided by "
                  "half_dim − s, so w<sub>i</sub> = b<sup>−i/(d/2 − s)</sup>. 0 is the paper's b<sup>−2i/d</sup> "
                  "(Stable Diffusion, Wan); 1, diffusers' default, the slowest pair at exactly 1/b (DDPM).");
    };
    return s;
}

} // namespace

QList<ParamSpec> rows()
{
    QList<ParamSpec> rows;

    ParamSpec base;
    base.key = u"base"_s;
    base.group = ParamGroup::Family;
    base.kind = ParamKind::Number;
    base.valueName = u"B"_s;
    base.help = u"frequency base b of w_i = b^(-2i/d)"_s;
    base.label = u"base"_s;
    base.value = [](const Params &p) { return ParamValue(p.sinusoidal.base); };
    base.assign = [](Params &p, const ParamValue &v) {
        if (const auto *d = std::get_if<double>(&v))
            p.sinusoidal.base = *d;
    };
    base.parse = [](const QString &t) -> std::optional<ParamValue> {
        bool ok = false;
        const double v = t.trimmed().toDouble(&ok);
        return ok ? std::optional<ParamValue>(ParamValue(v)) : std::nullopt;
    };
    base.allowed = [](const Params &) { return u"a finite number greater than 1"_s; };
    base.check = [](const Params &p) -> std::optional<ParamError> {
        if (!std::isfinite(p.sinusoidal.base) || p.sinusoidal.base <= 1.0)
            return ParamError {u"base"_s, u"a finite number greater than 1"_s, QString(),
                               NumberText::exact(p.sinusoidal.base)};
        return std::nullopt;
    };
    base.idle = sinusoidalIdle;
    base.formula = [](const Params &p) {
        QString text = tr("b in w<sub>i</sub> = b<sup>−2i/d</sup>, the angular frequency of pair i in "
                          "PE = sin(p·w<sub>i</sub>), cos(p·w<sub>i</sub>).");
        const double b = p.sinusoidal.base;
        if (const std::int64_t k = p.peColumns();
            k > 0 && std::isfinite(b) && b > 1.0 && shiftKeepsBase(p) && scaleIsPositive(p))
            text += tr(" The wavelengths 2π/w<sub>i</sub> run from %1 to %2 positions now.")
                        .arg(p.sinusoidal.timestepScale == 1.0
                                 ? u"2π"_s
                                 : QString::number(Frequencies::wavelength(0, k, p.sinusoidal), 'g', 5),
                             QString::number(Frequencies::wavelength(Frequencies::pairCount(k) - 1, k, p.sinusoidal),
                                             'g', 5));
        return text;
    };
    rows.append(base);

    ParamSpec layout = ParamRows::choice(u"layout"_s, ParamGroup::Family, &Params::sinusoidal,
                                         &SinusoidalParams::layout, {u"interleaved"_s, u"split"_s});
    layout.help = u"sin/cos columns interleaved (paper, PyTorch) or split in halves (TensorFlow)"_s;
    layout.helpShowsDefault = false;
    layout.idle = sinusoidalIdle;
    layout.formula = [](const Params &) {
        return tr("interleaved: column 2i holds sin(p·w<sub>i</sub>), column 2i+1 cos(p·w<sub>i</sub>) (the paper, "
                  "PyTorch).<br>split: the first ⌈d/2⌉ columns hold the sines, the rest the cosines (TensorFlow, "
                  "tensor2tensor).");
    };
    rows.append(layout);

    ParamSpec angles = ParamRows::choice(u"angles"_s, ParamGroup::Family, &Params::sinusoidal,
                                         &SinusoidalParams::angles, {u"exact"_s, u"float32"_s});
    angles.help = u"angle p*w formed in double (exact) or rounded to float32 first, as float32 code does"_s;
    angles.helpShowsDefault = false;
    angles.idle = sinusoidalIdle;
    angles.formula = [](const Params &) {
        return tr("exact: the angle p·w<sub>i</sub> formed in double, every value within 10<sup>−6</sup> of the "
                  "true sine or cosine.<br>float32: the angle rounded to float32 first, fl(p)·fl(w<sub>i</sub>), as "
                  "float32 code computes it: the error grows with p.");
    };
    rows.append(angles);
    rows.append(flipRow());
    rows.append(shiftRow());
    rows.append(scaleRow());
    return rows;
}

} // namespace posenc::SinusoidalParamRows
