#include "ParamLabels.h"

#include <QCoreApplication>
#include <QHash>

using namespace Qt::StringLiterals;

namespace posenc::ParamLabels {

QString label(const QString &key)
{
    // As ui/ControlPanel.ui and the views' title bars show them.
    static const QHash<QString, const char *> labels = {
        {u"d-model"_s, QT_TRANSLATE_NOOP("ParamLabels", "d_model")},
        {u"max-len"_s, QT_TRANSLATE_NOOP("ParamLabels", "max_len")},
        {u"scale"_s, QT_TRANSLATE_NOOP("ParamLabels", "scale s")},
        {u"init"_s, QT_TRANSLATE_NOOP("ParamLabels", "init sigma")},
        {u"pe-dims"_s, QT_TRANSLATE_NOOP("ParamLabels", "PE columns of concat")},
        {u"dropout"_s, QT_TRANSLATE_NOOP("ParamLabels", "dropout p")},
        {u"dropout-mode"_s, QT_TRANSLATE_NOOP("ParamLabels", "dropout mode")},
        {u"seq-len"_s, QT_TRANSLATE_NOOP("ParamLabels", "seq_len")},
        {u"eval"_s, QT_TRANSLATE_NOOP("ParamLabels", "mode")},
        {u"memory-budget"_s, QT_TRANSLATE_NOOP("ParamLabels", "memory budget")},
        {u"font-size"_s, QT_TRANSLATE_NOOP("ParamLabels", "font size")},
        {u"dims"_s, QT_TRANSLATE_NOOP("ParamLabels", "columns")},
    };
    const auto found = labels.constFind(key);
    return found == labels.cend() ? key : QCoreApplication::translate("ParamLabels", *found);
}

QString text(const ParamError &error)
{
    return label(error.key) + u": "_s + error.sentence();
}

} // namespace posenc::ParamLabels
