#pragma once

#include <QDialog>

#include <memory>

class QTextBrowser;
class QTextDocument;
class QUrl;

namespace posenc {

class ComputeScheduler;

// Help > User guide: docs/GUIDE.md (UserGuide::markdown), shown as a page in the program, from its
// start. Its links to its own sections (#the-window, as GitHub names a heading) go to them; a link
// out opens in the desktop's browser. Not modal: the window can be used while it is open.
//
// The guide's 200 kB of Markdown take a tenth of a second or more to read into a document, so they
// are read by a job (docs/ARCHITECTURE.md, Background work): the dialog opens at once with a line
// saying so, and shows the page when the job hands it over (`ready`).
class UserGuideDialog : public QDialog
{
    Q_OBJECT

public:
    explicit UserGuideDialog(QWidget *parent = nullptr);
    ~UserGuideDialog() override;

    QTextBrowser *browser() const { return m_browser; }
    // Whether the page is shown (before, the browser holds only the line saying it is being read).
    bool isReady() const { return m_ready; }

    // Scrolls the heading whose GitHub anchor is `anchor` ("checking-your-own-table") to the top;
    // false when the guide has no such heading, or its page is not shown yet.
    bool showSection(const QString &anchor);
    // GitHub's anchor of a heading: lower case, spaces as '-', punctuation but '-' and '_' left out.
    static QString anchorOf(const QString &heading);

signals:
    // The page is shown.
    void ready();

private:
    void showPage(std::unique_ptr<QTextDocument> page);
    void follow(const QUrl &url);

    QTextBrowser *m_browser;
    ComputeScheduler *m_reading;
    bool m_ready = false;
};

} // namespace posenc
