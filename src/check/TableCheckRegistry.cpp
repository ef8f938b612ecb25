// TableCheck's lists of what the families registered (their FamilySpec's TableHypothesis): the keys
// of their findings and declarations, their tables' words and help, their published forms and
// mistakes, for `posenc check --help` and --json (docs/ARCHITECTURE.md, Checking a table).
#include "TableCheck.h"

#include "check/FamilyCheck.h"
#include "check/RowConstant.h"
#include "core/FamilySpec.h"

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

QStringList findingKeys()
{
    QStringList keys;
    for (const FamilySpec &family : Families::all()) {
        if (!FamilyChecks::of(family.encoding).table)
            continue;
        for (const QString &key : FamilyChecks::of(family.encoding).table->findingKeys)
            if (!keys.contains(key))
                keys.append(key);
    }
    return keys;
}

QStringList declarableKeys()
{
    QStringList keys;
    for (const FamilySpec &family : Families::all())
        if (FamilyChecks::of(family.encoding).table)
            keys.append(FamilyChecks::of(family.encoding).table->declares);
    return keys;
}

QStringList tableWords()
{
    QStringList words;
    for (const FamilySpec &family : Families::all())
        if (FamilyChecks::of(family.encoding).table)
            words.append(FamilyChecks::of(family.encoding).table->tables);
    return words;
}

QList<std::pair<QString, QString>> tableHelp()
{
    QList<std::pair<QString, QString>> help;
    for (const FamilySpec &family : Families::all())
        if (FamilyChecks::of(family.encoding).table)
            help.append({FamilyChecks::of(family.encoding).table->tables.join(u", "_s),
                         FamilyChecks::of(family.encoding).table->help});
    return help;
}

QList<std::pair<QString, QString>> publishedFormsHelp()
{
    // The widths at which the families' forms are listed: the heads and models posenc's presets have.
    const std::int64_t widths[] = {64, 80, 96, 128, 256, 512, 768, 1024, 1280};
    QList<std::pair<QString, QString>> help;
    for (const FamilySpec &family : Families::all()) {
        const FamilyCheck &check = FamilyChecks::of(family.encoding);
        if (!check.table || !check.table->publishedForms || check.table->referenceCode.isEmpty())
            continue;
        // The forms grouped by their source, each name once; its maps' (FamilyCheck::stackForms) last.
        QStringList sources, names;
        QList<QStringList> bySource;
        for (const std::int64_t cols : widths) {
            for (const PublishedForm &form : check.table->publishedForms(cols) + check.stackForms) {
                if (names.contains(form.name))
                    continue;
                names.append(form.name);
                const qsizetype at = sources.indexOf(form.source);
                if (at < 0) {
                    sources.append(form.source);
                    bySource.append({form.name});
                } else {
                    bySource[at].append(form.name);
                }
            }
        }
        QStringList parts;
        for (qsizetype i = 0; i < sources.size(); ++i)
            parts.append(u"%1 (%2)"_s.arg(bySource[i].join(u", "_s), sources[i]));
        help.append({Families::word(family.encoding),
                     u"reference: %1. Published forms: %2"_s.arg(check.table->referenceCode,
                                                                 parts.isEmpty() ? u"none"_s : parts.join(u"; "_s))});
    }
    return help;
}

QStringList mistakeIds()
{
    QStringList ids;
    for (const FamilySpec &family : Families::all()) {
        if (!FamilyChecks::of(family.encoding).table)
            continue;
        for (const QString &id : FamilyChecks::of(family.encoding).table->mistakes)
            if (!ids.contains(id))
                ids.append(id);
    }
    // The check's own, of any family's table: read the other way round, a region changed, a grid's axes.
    for (const QString &id : CheckMistakes::kOfAnyTable + QStringList {RowConstant::kFollowsQuery}) {
        if (!ids.contains(id))
            ids.append(id);
    }
    return ids;
}

} // namespace posenc::TableCheck
