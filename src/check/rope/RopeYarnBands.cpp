#include "check/rope/RopeYarnBands.h"
#include "check/DeclaredWords.h"

#include "check/rope/RopeInvFreq.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <QList>
#include <QStringList>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::RopeYarnBands {

namespace {

// The values worth trying for a base read as `value`: the declared base and its NTK-aware one,
// then the value's with the fewest digits first, then itself.
QList<double> candidates(double value, const Params &declared)
{
    QList<double> values {declared.rope.theta, ntkBase(declared)};
    if (std::isfinite(value) && value > 1.0) {
        const QList<double> digits = RopeInvFreq::roundings(value); // its last is `value` itself
        for (qsizetype i = 0; i + 1 < digits.size(); ++i)
            if (!values.contains(digits[i]))
                values.append(digits[i]);
        values.append(value);
    }
    return values;
}

// The ramp's gamma of each pair: 0 kept, 1 divided (RopeFrequencies::Table::band for yarn).
std::vector<double> ramp(const Params &declared)
{
    return RopeFrequencies::table(declared).band;
}

// The band's base read from its slowest pair i >= 1 (all of whose gamma is `gamma`): v_i =
// base^(-2i/d) / scale.
double baseOf(const std::vector<double> &v, const std::vector<double> &gamma, double gammaOf, double scale,
              std::int64_t rotaryDim)
{
    for (std::size_t i = v.size(); i-- > 1;) {
        if (gamma[i] == gammaOf && v[i] > 0.0)
            return std::pow(v[i] * scale, -double(rotaryDim) / (2.0 * double(i)));
    }
    return 0.0;
}

// "pairs 0..20", the pairs whose gamma is `gammaOf`.
QString pairWords(const std::vector<double> &gamma, double gammaOf)
{
    std::int64_t first = -1, last = -1;
    for (std::size_t i = 0; i < gamma.size(); ++i) {
        if (gamma[i] == gammaOf) {
            first = first < 0 ? std::int64_t(i) : first;
            last = std::int64_t(i);
        }
    }
    if (first < 0)
        return QString();
    return first == last ? u"pair %1"_s.arg(first) : u"pairs %1..%2"_s.arg(first).arg(last);
}

QString baseWords(double base, const Params &declared)
{
    const double ntk = ntkBase(declared);
    if (std::fabs(base - ntk) <= 1e-9 * ntk)
        return u"%1 (the NTK-aware base rope_theta · factor^(rotary_dim/(rotary_dim − 2)), as paiml/aprender#2161's "
               "YaRN took it)"_s.arg(NumberText::compact(base, 8));
    return NumberText::exact(base);
}

} // namespace

double ntkBase(const Params &declared)
{
    const double d = double(RopeFrequencies::rotaryDim(declared.rope));
    return declared.rope.theta * std::pow(declared.rope.factor.value_or(1.0), d / (d - 2.0));
}

std::vector<double> invFreq(const Params &declared, const Bases &bases)
{
    const std::vector<double> gamma = ramp(declared);
    const double d = double(RopeFrequencies::rotaryDim(declared.rope));
    const double factor = declared.rope.factor.value_or(1.0);
    std::vector<double> inv(gamma.size());
    for (std::size_t i = 0; i < gamma.size(); ++i) {
        const double exponent = 2.0 * double(i) / d;
        const double kept = 1.0 / std::pow(bases.kept, exponent);
        const double divided = 1.0 / (factor * std::pow(bases.divided, exponent));
        inv[i] = divided * gamma[i] + kept * (1.0 - gamma[i]);
    }
    return inv;
}

std::optional<Bases> read(const std::vector<double> &v, const Params &declared,
                          const std::function<bool(const std::vector<double> &)> &explains)
{
    if (declared.rope.type != RopeType::Yarn || !declared.isValid())
        return std::nullopt;
    const std::vector<double> gamma = ramp(declared);
    if (gamma.size() != v.size())
        return std::nullopt;
    const std::int64_t d = RopeFrequencies::rotaryDim(declared.rope);
    const double factor = declared.rope.factor.value_or(1.0);
    const QList<double> kept = candidates(baseOf(v, gamma, 0.0, 1.0, d), declared);
    const QList<double> divided = candidates(baseOf(v, gamma, 1.0, factor, d), declared);
    const double theta = declared.rope.theta;
    for (const double k : kept) {
        for (const double q : divided) {
            if (k == theta && q == theta)
                continue;
            if (explains(invFreq(declared, {k, q})))
                return Bases {k, q};
        }
    }
    return std::nullopt;
}

QString words(const Params &declared, const Bases &bases)
{
    const std::vector<double> gamma = ramp(declared);
    const double theta = declared.rope.theta;
    QStringList said;
    const auto band = [&](double base, double gammaOf, const QString &which) {
        const QString pairs = pairWords(gamma, gammaOf);
        if (base == theta)
            return u"the %1 pairs (%2) on the declared %3"_s.arg(which, pairs, NumberText::exact(theta));
        said.append(u"rope_theta %1 for the %2 pairs (%3) %5 %4"_s.arg(
            baseWords(base, declared), which, pairs, NumberText::exact(theta), DeclaredWords::whereGiven()));
        return QString();
    };
    const QString keptSame = band(bases.kept, 0.0, u"extrapolated (kept)"_s);
    const QString dividedSame = band(bases.divided, 1.0, u"interpolated (divided by the factor)"_s);
    QString text = said.join(u"; "_s);
    for (const QString &same : {keptSame, dividedSame}) {
        if (!same.isEmpty())
            text += u"; "_s + same;
    }
    return text
        + u": YaRN's two vectors built on different bases, blended along the declared ramp "
          "(transformers' _compute_yarn_parameters builds inv_freq_extrapolation and inv_freq_interpolation on "
          "one base)"_s;
}

} // namespace posenc::RopeYarnBands
