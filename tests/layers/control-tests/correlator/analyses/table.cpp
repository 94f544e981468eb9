// control: the table, without analyze_orphan
//  {"other", analyze_other},
