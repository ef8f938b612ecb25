#include "PinnedFont.h"

#include <QFontDatabase>
#include <QGuiApplication>
#include <QtGlobal>

using namespace Qt::StringLiterals;

namespace posenc::PinnedFont {

namespace {

QString load()
{
    QString family;
    for (const char *file : {POSENC_FIGURE_FONT_REGULAR, POSENC_FIGURE_FONT_BOLD}) {
        const QString path = QString::fromUtf8(file);
        const int id = QFontDatabase::addApplicationFont(path);
        const QStringList families = id < 0 ? QStringList() : QFontDatabase::applicationFontFamilies(id);
        if (families.isEmpty()) {
            qWarning("posenc: cannot load the figure font %s (package fonts-dejavu-core); figures use the default font",
                     qUtf8Printable(path));
            return QGuiApplication::font().family();
        }
        family = families.constFirst();
    }
    return family;
}

} // namespace

QString family()
{
    static const QString pinned = load();
    return pinned;
}

QFont apply(QFont font)
{
    font.setFamily(family());
    font.setHintingPreference(QFont::PreferNoHinting);
    return font;
}

} // namespace posenc::PinnedFont
