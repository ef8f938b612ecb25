#pragma once

#include <QDialog>

class QTextBrowser;
class QUrl;

namespace posenc {

// Help > User guide: docs/GUIDE.md (UserGuide::markdown), shown as a page in the program, from its
// start. Its links to its own sections (#the-window, as GitHub names a heading) go to them; a link
// out opens in the desktop's browser. Not modal: the window can be used while it is open.
class UserGuideDialog : public QDialog
{
    Q_OBJECT

public:
    explicit UserGuideDialog(QWidget *parent = nullptr);

    QTextBrowser *browser() const { return m_browser; }

    // Scrolls the heading whose GitHub anchor is `anchor` ("checking-your-own-table") to the top;
    // false when the guide has no such heading.
    bool showSection(const QString &anchor);
    // GitHub's anchor of a heading: lower case, spaces as '-', punctuation but '-' and '_' left out.
    static QString anchorOf(const QString &heading);

private:
    void follow(const QUrl &url);

    QTextBrowser *m_browser;
};

} // namespace posenc
