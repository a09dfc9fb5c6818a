module.exports = require('./dist/admin');
