#include "ParamTips.h"

#include "ParamLabels.h"

#include "core/ParamTable.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace posenc::ParamTips {

QString formula(const QString &key, const Params &p)
{
    const ParamSpec *row = ParamTable::find(key);
    return row ? row->formula(p) : QString();
}

QString idleText(const QString &key, const Params &p)
{
    const auto why = ParamUse::reason(p, key);
    return why ? why->why : QString();
}

QString tooltip(const QString &key, const Params &params)
{
    const ParamSpec *row = ParamTable::find(key);
    if (!row)
        return {};
    QString text = u"<b>%1</b>&nbsp;&nbsp;<code>%2</code>"_s.arg(ParamLabels::label(key), row->flag().toHtmlEscaped());
    if (const QString why = idleText(key, params); !why.isEmpty())
        text += u"<br><i>%1 %2</i>"_s.arg(QCoreApplication::translate("ParamTips", "Not used now:"), why);
    return text + u"<br>"_s + formula(key, params);
}

} // namespace posenc::ParamTips
