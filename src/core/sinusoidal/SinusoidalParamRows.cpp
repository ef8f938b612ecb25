#include "SinusoidalParamRows.h"

#include "Frequencies.h"

#include "core/NumberText.h"

#include <QCoreApplication>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::SinusoidalParamRows {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("SinusoidalParamRows", text);
}

// The family's parameters have no say under another encoding, nor without PE columns.
std::optional<IdleReason> sinusoidalIdle(const Params &params)
{
    if (const auto idle = ParamRows::otherEncoding(params, Encoding::Sinusoidal))
        return idle;
    if (params.peColumns() == 0)
        return IdleReason {IdleReason::Code::NoPeColumns, tr("concat with pe_dims 0 leaves no column for the PE.")};
    return std::nullopt;
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
        if (const std::int64_t k = p.peColumns(); k > 0 && std::isfinite(b) && b > 1.0)
            text += tr(" The wavelengths 2π/w<sub>i</sub> run from 2π to %1 positions now.")
                        .arg(QString::number(Frequencies::wavelength(Frequencies::pairCount(k) - 1, k, b), 'g', 5));
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
    return rows;
}

} // namespace posenc::SinusoidalParamRows
