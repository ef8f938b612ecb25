#include "ParamLabels.h"

#include "core/ParamTable.h"

#include <QCoreApplication>
#include <QHash>

using namespace Qt::StringLiterals;

namespace posenc::ParamLabels {

QString label(const QString &key)
{
    if (const ParamSpec *row = ParamTable::find(key))
        return QCoreApplication::translate("ParamTable", qPrintable(row->label));
    // Figure options that are not parameters, with a word of their own.
    static const QHash<QString, const char *> labels = {
        {u"font-size"_s, QT_TRANSLATE_NOOP("ParamLabels", "font size")},
    };
    const auto found = labels.constFind(key);
    return found == labels.cend() ? key : QCoreApplication::translate("ParamLabels", *found);
}

QString text(const ParamError &error)
{
    return label(error.key) + u": "_s + error.sentence();
}

} // namespace posenc::ParamLabels
