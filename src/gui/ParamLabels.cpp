#include "ParamLabels.h"

#include <QCoreApplication>
#include <QHash>

using namespace Qt::StringLiterals;

namespace posenc::ParamLabels {

QString label(const QString &key)
{
    // The command line's words (posenc --help), as ui/ControlPanel.ui and the views' title bars
    // show them: a flag's name, with "_" where the field writes it so (d_model, max_len, seq_len,
    // pe_dims) and a space between words (dropout mode).
    static const QHash<QString, const char *> labels = {
        {u"d-model"_s, QT_TRANSLATE_NOOP("ParamLabels", "d_model")},
        {u"max-len"_s, QT_TRANSLATE_NOOP("ParamLabels", "max_len")},
        {u"pe-dims"_s, QT_TRANSLATE_NOOP("ParamLabels", "pe_dims")},
        {u"dropout-mode"_s, QT_TRANSLATE_NOOP("ParamLabels", "dropout mode")},
        {u"seq-len"_s, QT_TRANSLATE_NOOP("ParamLabels", "seq_len")},
        {u"memory-budget"_s, QT_TRANSLATE_NOOP("ParamLabels", "memory budget")},
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
