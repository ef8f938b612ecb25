#include "support/TestFamily.h"

#include "core/ParamTable.h"
#include "core/ParamText.h"

#include <QtGlobal>

#include <algorithm>
#include <vector>

using namespace posenc;

namespace {

struct Maker
{
    Encoding encoding;
    TestFamily (*make)();
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
    for (const ParamSpec &row : ParamTable::rows())
        if (row.group == ParamGroup::Family && row.family == spec.encoding)
            family.rowKeys.append(row.key);
    return family;
}

} // namespace

namespace TestFamilies {

bool add(Encoding encoding, TestFamily (*make)())
{
    makers().push_back({encoding, make});
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

} // namespace TestFamilies
