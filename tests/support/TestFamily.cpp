#include "support/TestFamily.h"

#include "core/ParamTable.h"
#include "core/ParamText.h"

#include <QDir>
#include <QFileInfo>
#include <QtGlobal>

#include <algorithm>
#include <vector>

using namespace posenc;

namespace {

struct Maker
{
    Encoding encoding;
    TestFamily (*make)();
    const char *file;
};

// Filled by the families' files before main (each registration's static initialiser); read after.
std::vector<Maker> &makers()
{
    static std::vector<Maker> list;
    return list;
}

TestFamily made(const FamilySpec &spec)
{
    const auto maker
        = std::find_if(makers().begin(), makers().end(), [&](const Maker &m) { return m.encoding == spec.encoding; });
    if (maker == makers().end())
        qFatal("family %s has no test record: write POSENC_TEST_FAMILY in tests/families/%s/", qPrintable(spec.word),
               qPrintable(spec.word));
    TestFamily family = maker->make();
    family.encoding = spec.encoding;
    family.word = spec.word;
    family.folder = QFileInfo(QString::fromUtf8(maker->file)).dir().dirName();
    for (const ParamSpec &row : ParamTable::rows())
        if (row.group == ParamGroup::Family && row.family == spec.encoding)
            family.rowKeys.append(row.key);
    return family;
}

} // namespace

std::pair<double, double> TestPanel::at(std::int64_t k) const
{
    const auto it = std::upper_bound(pixels.starts.cbegin(), pixels.starts.cend(), k);
    const qsizetype g = it - pixels.starts.cbegin() - 1;
    return {curve.lo[g], curve.hi[g]};
}

double TestPanel::stepAt(std::int64_t k) const
{
    const auto it = std::upper_bound(curve.offset.cbegin(), curve.offset.cend(), double(k));
    return curve.lo[it - curve.offset.cbegin() - 1];
}

namespace TestFamilies {

bool add(Encoding encoding, TestFamily (*make)(), const char *file)
{
    makers().push_back({encoding, make, file});
    return true;
}

const QList<TestFamily> &all()
{
    static const QList<TestFamily> list = [] {
        QList<TestFamily> families;
        for (const FamilySpec &spec : Families::all())
            families.append(made(spec));
        return families;
    }();
    return list;
}

const TestFamily &of(Encoding encoding)
{
    for (const TestFamily &family : all())
        if (family.encoding == encoding)
            return family;
    qFatal("no family %d", int(encoding));
}

namespace {

// The family whose parameters draw a figure of `families`: the first, when each has its own.
const TestFamily *drawing(const QList<Encoding> &families)
{
    if (families.isEmpty())
        return nullptr;
    for (const Encoding family : families)
        if (!of(family).figureParams)
            return nullptr;
    return &of(families.front());
}

} // namespace

Params forFamilies(const QList<Encoding> &families, Params p)
{
    const TestFamily *family = drawing(families);
    return family ? family->figureParams(std::move(p)) : p;
}

QStringList flagsForFamilies(const QList<Encoding> &families, std::int64_t maxLen)
{
    const TestFamily *family = drawing(families);
    if (!family)
        return {};
    QStringList flags = {QStringLiteral("--encoding"), family->word};
    if (family->figureFlags)
        flags += family->figureFlags(maxLen);
    return flags;
}

Params applied(Params p, const TestSetting &setting)
{
    for (const auto &[key, text] : setting)
        if (const auto error = ParamText::set(p, key, text))
            qFatal("%s=%s: %s", qPrintable(key), qPrintable(text), qPrintable(error->sentence()));
    return p;
}

const QList<std::pair<QString, TestSetting>> &idleSettings(const TestFamily &family)
{
    return family.idleSettings.isEmpty() ? family.settings : family.idleSettings;
}

const TestSetting &setting(const TestFamily &family, const QString &name)
{
    for (const auto *list : {&family.idleSettings, &family.settings})
        for (const auto &[n, s] : *list)
            if (n == name)
                return s;
    qFatal("%s has no setting '%s'", qPrintable(family.word), qPrintable(name));
}

QStringList otherValues(const TestFamily &family, const QString &key)
{
    for (const auto &[k, values] : family.otherValues)
        if (k == key)
            return values;
    QStringList values;
    for (const auto &[k, text] : family.changes)
        if (k == key)
            values.append(text);
    if (const ParamSpec *row = ParamTable::find(key); row && row->kind != ParamKind::Matrix)
        values.append(ParamText::get(Params {}, key));
    return values;
}

QStringList presetQuantities(const TestFamily &family)
{
    if (!family.presetTables.quantities.isEmpty() || !family.roundTrips)
        return family.presetTables.quantities;
    QStringList quantities;
    for (const TestRoundTrip &trip : family.roundTrips(false))
        if (!quantities.contains(trip.quantity))
            quantities.append(trip.quantity);
    return quantities;
}

const TestFamily *ofPreset(const QString &name)
{
    for (const TestFamily &family : all())
        if (family.presets.contains(name))
            return &family;
    return nullptr;
}

} // namespace TestFamilies
